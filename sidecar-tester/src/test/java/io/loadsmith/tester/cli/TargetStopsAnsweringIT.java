package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.ResultsSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code loadsmith run} against a loopback JDK HttpServer that is stopped after its 200th request: a 60 s
 * run at 100/s with {@code target.give_up_after: 2s} gives up long before its end, writes every file and
 * exits 3, saying when the target stopped answering.
 */
class TargetStopsAnsweringIT {

    private static final long ANSWERS_BEFORE_STOP = 200;

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicLong received = new AtomicLong();
    private final AtomicBoolean stopping = new AtomicBoolean();

    @BeforeEach
    void startServer() throws IOException {
        handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "target-stops-handler");
            thread.setDaemon(true);
            return thread;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(handlers);
        server.createContext("/work", this::work);
        server.start();
    }

    private void work(HttpExchange exchange) throws IOException {
        byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
        if (received.incrementAndGet() == ANSWERS_BEFORE_STOP && stopping.compareAndSet(false, true)) {
            Thread stopper = new Thread(() -> server.stop(0), "target-stops-stopper");
            stopper.setDaemon(true);
            stopper.start();
        }
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void a_target_that_stops_answering_ends_the_run_after_give_up_after_with_every_file_and_exit_3()
            throws Exception {
        Path scenario = dir.resolve("dies.yaml");
        Files.writeString(scenario, """
                name: dies
                target:
                  url: http://127.0.0.1:%d
                  give_up_after: 2s
                load: {model: open, arrivals: constant, rate: 100, duration: 60s, grace: 1s, max_concurrency: 64}
                journeys:
                  - name: work
                    steps:
                      - request: GET /work
                """.formatted(server.getAddress().getPort()));
        Path out = dir.resolve("out");
        StringWriter console = new StringWriter();
        StringWriter errors = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(console, true));
        cmd.setErr(new PrintWriter(errors, true));

        int exit = cmd.execute("run", scenario.toString(), "--out", out.toString(), "--progress", "none");

        String printed = console + "\n" + errors;
        assertThat(exit).as(printed).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(received.get()).isGreaterThanOrEqualTo(ANSWERS_BEFORE_STOP);
        assertThat(errors.toString()).as(printed).containsPattern(
                "the target stopped answering \\d+ s into the run \\(errors: [a-z_ 0-9,]*(refused|reset) [1-9]")
                .contains("gave up after 2.0 s of that (target.give_up_after)");
        assertThat(out.resolve("latency.hlog")).isNotEmptyFile();
        assertThat(out.resolve(RequestLog.FILE_NAME)).isNotEmptyFile();
        assertThat(out.resolve("report.html")).as(printed).isNotEmptyFile();
        assertThat(ResultsSchema.problems(out.resolve("results.json"))).isEmpty();

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        JsonNode lost = results.path("target_lost");
        assertThat(lost.path("gave_up").asBoolean()).as(lost.toString()).isTrue();
        assertThat(lost.path("give_up_after_s").asDouble()).isEqualTo(2.0);
        double stoppedS = lost.path("stopped_answering_s").asDouble();
        assertThat(stoppedS).as("200 answers at 100/s").isBetween(1.0, 30.0);
        assertThat(errors.toString()).contains("stopped answering " + Math.round(stoppedS) + " s into the run");
        long refusedOrReset = lost.path("errors").path("refused").asLong() + lost.path("errors").path("reset").asLong();
        assertThat(refusedOrReset).isPositive();
        JsonNode run = results.path("runs").get(0);
        assertThat(run.path("interrupted").asBoolean()).isTrue();
        assertThat(run.path("warnings").toString()).contains("the target stopped answering " + Math.round(stoppedS)
                + " s into the run");
        assertThat(run.path("duration_ms").asDouble()).as("ended early: the run was 60 s").isLessThan(40_000.0);
        assertThat(run.path("counts").path("errors").asLong()).isGreaterThanOrEqualTo(refusedOrReset);
    }
}
