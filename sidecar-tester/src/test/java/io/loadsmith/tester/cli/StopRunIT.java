package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.record.RequestLog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C end to end: {@code loadsmith run} in a child JVM against a loopback JDK HttpServer, a 60 s run at
 * 200/s, interrupted with SIGINT after 2.5 s of load. The server answers after 2 ms, every 20th request
 * with a 500 and every 100th never within the run (it sleeps 30 s), so the stopped run has completed,
 * errors and dropped requests.
 */
class StopRunIT {

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicLong received = new AtomicLong();

    @BeforeEach
    void startServer() throws IOException {
        handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "stop-it-handler");
            thread.setDaemon(true);
            return thread;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(handlers);
        server.createContext("/work", this::work);
        server.start();
    }

    private void work(HttpExchange exchange) throws IOException {
        long n = received.incrementAndGet();
        try {
            Thread.sleep(n % 100 == 0 ? 30_000 : 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(n % 20 == 0 ? 500 : 200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void sigint_stops_sending_waits_the_grace_and_writes_every_file_marked_interrupted() throws Exception {
        Path scenario = dir.resolve("stop.yaml");
        Files.writeString(scenario, """
                name: stop
                target:
                  url: http://127.0.0.1:%d
                load: {model: open, arrivals: constant, rate: 200, duration: 60s, grace: 1s, max_concurrency: 128}
                objective: 10ms
                journeys:
                  - name: work
                    steps:
                      - request: GET /work
                slos:
                  - p99 < 1000ms
                  - errors < 1%%
                """.formatted(server.getAddress().getPort()));
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");
        Process child = ChildCli.start(console, null, "run", scenario.toString(), "--out", out.toString(),
                "--progress", "line");
        try {
            // 500 requests at 200/s (2.5 s of load), and a live line printed (once a second)
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> !child.isAlive()
                    || received.get() >= 500 && Files.readString(console).contains("corrected p99 so far"));
            assertThat(child.isAlive()).as("the child still runs after 500 requests; console: %s",
                    Files.readString(console)).isTrue();
            ChildCli.interrupt(child);

            // the grace (1 s) and the files, bounded by the hook's wait (grace + 20 s); the run had 57 s left
            assertThat(child.waitFor(40, TimeUnit.SECONDS)).as("exited; console: %s", Files.readString(console))
                    .isTrue();
        } finally {
            ChildCli.destroyTree(child);
        }
        String printed = Files.readString(console);
        assertThat(child.exitValue()).as("the exit status of a SIGINT; console: %s", printed).isEqualTo(130);
        assertThat(out.resolve("latency.hlog")).as(printed).isNotEmptyFile();
        assertThat(out.resolve(RequestLog.FILE_NAME)).as(printed).isNotEmptyFile();
        assertThat(out.resolve("report.html")).as(printed).isNotEmptyFile();

        JsonNode run = new ObjectMapper().readTree(out.resolve("results.json").toFile()).path("runs").get(0);
        assertThat(run.path("interrupted").asBoolean()).isTrue();
        assertThat(run.path("transport").toString()).isEqualTo("{\"kind\":\"netty\",\"http\":\"1.1\"}");
        assertThat(run.path("warnings").toString()).contains("stopped early by the user after");
        assertThat(run.path("duration_ms").asDouble()).isBetween(2_000.0, 30_000.0);
        JsonNode c = run.path("counts");
        long scheduled = c.path("scheduled").asLong();
        long sent = c.path("sent").asLong();
        long completed = c.path("completed").asLong();
        long errors = c.path("errors").asLong();
        long dropped = c.path("dropped").asLong();
        assertThat(scheduled).isBetween(400L, 6_000L);
        assertThat(sent + dropped + c.path("skipped").asLong()).isEqualTo(scheduled);
        assertThat(completed + errors).isEqualTo(sent);
        assertThat(errors).as("every 20th answer is a 500").isPositive();
        assertThat(dropped).as("every 100th request hangs past the grace").isPositive();
        assertThat(c.path("dropped_after_send").asLong()).isPositive();
        long logged = 0;
        try (RequestLog.Reader records = RequestLog.read(out.resolve(RequestLog.FILE_NAME))) {
            while (records.hasNext()) {
                records.next();
                logged++;
            }
        }
        assertThat(logged).isEqualTo(scheduled);
        assertThat(printed).contains("corrected p99 so far").contains("stopping: no new requests")
                .doesNotContain("Exception");
    }
}
