package io.loadsmith.tester.cli;

import static io.loadsmith.tester.cli.VerifyCommandTest.copy;
import static io.loadsmith.tester.cli.VerifyCommandTest.execute;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.tester.result.InvalidResultsOnPurpose;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadsmith verify} on the folder of a real run with stalls: {@code loadsmith run} (open loop, 2 s at
 * 200/s) against a loopback HTTP server whose handler passes a stall gate, armed through the real admin
 * server of stall-service, all in this JVM; then verify on the folder and on damaged copies of it.
 */
class VerifyIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;
    static Path run;

    @BeforeAll
    static void a_run_with_stalls() throws Exception {
        StallGate gate = new StallGate();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        http.setExecutor(threads);
        http.createContext("/", exchange -> {
            gate.pass();
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        try (StallController controller = new StallController(Clock.system(), gate);
             AdminServer admin = AdminServer.start(AdminConfig.builder().port(0).build(), controller)) {
            Path scenario = shared.resolve("verify-loopback.yaml");
            Files.writeString(scenario, String.join("\n",
                    "name: verify-loopback",
                    "target:",
                    "  url: http://127.0.0.1:" + http.getAddress().getPort() + "/",
                    "stalls:",
                    "  admin: http://127.0.0.1:" + admin.address().getPort(),
                    "  seed: 7",
                    "  mean_interval: 400ms",
                    "  duration: 50ms",
                    "  min_gap: 200ms",
                    "load:",
                    "  model: open",
                    "  arrivals: poisson",
                    "  rate: 200",
                    "  duration: 2s",
                    "  warmup: 50",
                    "  grace: 2s",
                    "  seed: 1",
                    "objective: 10ms", ""));
            run = shared.resolve("out");
            var ran = execute("run", scenario.toString(), "--out", run.toString(), "--progress", "none");
            assertThat(ran.exit()).as(ran.err()).isEqualTo(ExitCodes.OK);
        } finally {
            http.stop(0);
            threads.shutdownNow();
        }
        assertThat(JSON.readTree(run.resolve("results.json").toFile()).at("/runs/0/stalls")).isNotEmpty();
    }

    @Test
    void every_figure_of_a_real_run_with_stalls_agrees() {
        var verified = execute("verify", run.toString());

        assertThat(verified.exit()).as(verified.out() + verified.err()).isEqualTo(ExitCodes.OK);
        assertThat(verified.out()).contains("runs[0].counts.sent").contains("runs[0].stalls[0].sent_during")
                .contains("runs[0].stall_summary.overlapping_share")
                .contains("runs[0].latency_ms.corrected.p99 (latency.hlog)")
                .contains("note: open: no pauses to check")
                .containsPattern("all \\d+ figures agree").doesNotContain("DISAGREES");
    }

    @Test
    @InvalidResultsOnPurpose
    void an_edited_count_percentile_and_stall_figure_are_each_named(@TempDir Path dir) throws IOException {
        Path copy = copy(run, dir.resolve("edited"));
        ObjectNode results = (ObjectNode) JSON.readTree(copy.resolve("results.json").toFile());
        ObjectNode first = (ObjectNode) results.withArray("runs").get(0);
        ObjectNode counts = (ObjectNode) first.get("counts");
        counts.put("completed", counts.get("completed").asLong() - 1);
        ObjectNode corrected = (ObjectNode) first.get("latency_ms").get("corrected");
        corrected.put("p99", corrected.get("p99").asDouble() * 2 + 1);
        ObjectNode stall = (ObjectNode) first.withArray("stalls").get(0);
        stall.put("overlapping", stall.get("overlapping").asLong() + 1);
        JSON.writeValue(copy.resolve("results.json").toFile(), results);

        var verified = execute("verify", copy.toString());

        assertThat(verified.exit()).as(verified.out() + verified.err()).isEqualTo(VerifyCommand.DISAGREES);
        assertThat(verified.out()).contains("4 of ")
                .containsPattern("runs\\[0]\\.counts\\.completed +\\d+ +\\d+ +DISAGREES")
                .containsPattern("runs\\[0]\\.latency_ms\\.corrected\\.p99 +[\\d.]+ +[\\d.]+ +DISAGREES")
                .containsPattern("runs\\[0]\\.latency_ms\\.corrected\\.p99 \\(latency.hlog\\) +[\\d.]+ +[\\d.]+ +DISAGREES")
                .containsPattern("runs\\[0]\\.stalls\\[0]\\.overlapping +\\d+ +\\d+ +DISAGREES");
        assertThat(verified.out().lines().filter(l -> l.endsWith("DISAGREES")).count()).isEqualTo(4);
    }

    @Test
    void a_missing_request_log_is_bad_input_naming_it(@TempDir Path dir) throws IOException {
        Path copy = copy(run, dir.resolve("missing"));
        Files.delete(copy.resolve("requests.bin"));

        var verified = execute("verify", copy.toString());

        assertThat(verified.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(verified.err()).contains(copy.resolve("requests.bin") + ": no such file (runs[0].requests_log names it)");
    }

    @Test
    @InvalidResultsOnPurpose
    void a_truncated_request_log_is_bad_input_naming_it(@TempDir Path dir) throws IOException {
        Path copy = copy(run, dir.resolve("truncated"));
        Path log = copy.resolve("requests.bin");
        try (FileChannel file = FileChannel.open(log, StandardOpenOption.WRITE)) {
            file.truncate(file.size() - 10);
        }

        var verified = execute("verify", copy.toString());

        assertThat(verified.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(verified.err()).containsPattern(java.util.regex.Pattern.quote(log.toString())
                + ": truncated: record \\d+ holds 31 of its 41 bytes");
    }
}
