package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI end to end, in this JVM, on simulated targets (virtual time: fast and exact). */
class CliRunTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    private Path scenario(String yaml) throws Exception {
        Path file = dir.resolve("sim.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static final String SIMULATED = """
            name: sim
            target:
              simulate: {servers: 1, service_time: 1ms, stalls: [{at: 2s, duration: 1s}]}
            load: {model: open, arrivals: constant, rate: 100, duration: 5s, grace: 2s}
            objective: 10ms
            slos:
              - errors < 1%
            """;

    @Test
    void run_on_a_simulated_scenario_writes_results_json_and_the_hlog_and_exits_0() throws Exception {
        Path out = dir.resolve("out");
        assertThat(run("run", scenario(SIMULATED).toString(), "--out", out.toString())).isEqualTo(ExitCodes.OK);
        assertThat(out.resolve("latency.hlog")).isNotEmptyFile();
        assertThat(out.resolve("requests.bin")).isNotEmptyFile();
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(results.path("schema").asText()).isEqualTo("loadsmith/results/v1");
        JsonNode counts = results.path("runs").get(0).path("counts");
        assertThat(counts.path("scheduled").asLong()).isEqualTo(500);
        assertThat(counts.path("sent").asLong()).isEqualTo(500);
        assertThat(counts.path("completed").asLong()).isEqualTo(500);
        assertThat(counts.path("errors").asLong()).isZero();
        assertThat(results.path("runs").get(0).has("transport")).as("a simulation has no HTTP client").isFalse();
        assertThat(results.path("slos").get(0).path("expr").asText()).isEqualTo("errors < 1%");
        assertThat(results.path("slos").get(0).path("pass").asBoolean()).isTrue();
        assertThat(results.path("slos").get(0).path("value_percent").isNumber()).isTrue();
        assertThat(results.path("slos").get(0).path("value_ms").isNull()).isTrue();
        assertThat(this.out.toString()).contains("service").contains("corrected").contains("SLO errors < 1%");
    }

    @Test
    void an_slo_failure_exits_1_and_is_recorded() throws Exception {
        Path out = dir.resolve("out");
        int code = run("run", scenario(SIMULATED).toString(), "--out", out.toString(), "--set", "slos=[p99 < 5ms]");
        assertThat(code).isEqualTo(ExitCodes.SLO_FAILED);
        JsonNode slo = new ObjectMapper().readTree(out.resolve("results.json").toFile()).path("slos").get(0);
        assertThat(slo.path("expr").asText()).isEqualTo("p99 < 5ms");
        assertThat(slo.path("pass").asBoolean()).isFalse();
        assertThat(slo.path("value_ms").asDouble()).isGreaterThan(5);
        assertThat(slo.path("value_percent").isNull()).isTrue();
        assertThat(this.out.toString()).contains("FAIL");
    }

    /** An --out folder where report.html cannot be written: a folder of that name, not empty, is in the way. */
    private Path outWhereTheReportCannotBeWritten() throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("report.html"));
        Files.writeString(out.resolve("report.html").resolve("in-the-way"), "");
        return out;
    }

    @Test
    void a_good_run_whose_report_fails_exits_0_with_a_warning_and_keeps_its_results() throws Exception {
        Path out = outWhereTheReportCannotBeWritten();

        assertThat(run("run", scenario(SIMULATED).toString(), "--out", out.toString())).isEqualTo(ExitCodes.OK);
        assertThat(out.resolve("results.json")).isNotEmptyFile();
        assertThat(this.out.toString()).contains("wrote " + out.resolve("results.json") + "\n"
                + "warning: the report failed (cannot write " + out.resolve("report.html") + "); once fixed: "
                + "loadsmith report " + out + "\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void a_run_with_a_failed_slo_whose_report_fails_still_exits_1_with_the_warning() throws Exception {
        Path out = outWhereTheReportCannotBeWritten();

        int code = run("run", scenario(SIMULATED).toString(), "--out", out.toString(), "--set", "slos=[p99 < 5ms]");
        assertThat(code).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(this.out.toString()).contains("warning: the report failed (cannot write " + out.resolve("report.html"));
    }

    @Test
    void a_bad_file_exits_2_with_the_message_and_writes_nothing() throws Exception {
        Path out = dir.resolve("out");
        Path file = scenario(SIMULATED.replace("rate: 100", "rate: -5"));
        assertThat(run("run", file.toString(), "--out", out.toString())).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().trim()).isEqualTo("loadsmith: sim.yaml:4: load.rate must be > 0 (got -5)");
        assertThat(out).doesNotExist();
    }

    @Test
    void a_bad_experiment_file_exits_2_naming_file_line_and_key() throws Exception {
        scenario(SIMULATED);
        Path file = Files.writeString(dir.resolve("e.yaml"), "scenario: sim.yaml\nduration: 5s\nduraton: 6s\n");
        assertThat(run("experiment", file.toString(), "--out", dir.resolve("out").toString()))
                .isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().trim())
                .isEqualTo("loadsmith: e.yaml:3: duraton is not a known key (did you mean duration?)");
    }

    @Test
    void a_bad_override_exits_2() throws Exception {
        assertThat(run("run", scenario(SIMULATED).toString(), "--set", "load.rat=5")).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().trim()).isEqualTo("loadsmith: --set load.rat=5: load.rat is not a known key (did you mean rate?)");
    }

    @Test
    void a_bad_metrics_address_or_metrics_for_a_simulation_exits_2() throws Exception {
        Path file = scenario(SIMULATED);
        assertThat(run("run", file.toString(), "--metrics", "127.0.0.1:x")).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run("run", file.toString(), "--metrics", "9464")).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().trim().lines()).containsExactly(
                "loadsmith: --metrics must be HOST:PORT or PORT, e.g. 127.0.0.1:9464, the port a number from 0 to 65535 "
                        + "(got \"127.0.0.1:x\")",
                "loadsmith: --set metrics.listen='9464': metrics serves a real run's live figures, so it needs target.url; "
                        + "a simulation runs in virtual time, with nothing live to serve");
        assertThat(dir.resolve("results")).doesNotExist();
    }

    @Test
    void a_port_taken_by_another_process_exits_2_before_sending() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Path file = scenario("target: {url: 'http://127.0.0.1:" + taken.getLocalPort() + "/'}\nload: {rate: 10, duration: 1s}\n");
            assertThat(run("run", file.toString(), "--out", dir.resolve("out").toString(),
                    "--metrics", "127.0.0.1:" + taken.getLocalPort())).isEqualTo(ExitCodes.BAD_INPUT);
        }
        assertThat(err.toString()).startsWith("loadsmith: metrics.listen: cannot listen on 127.0.0.1:");
        assertThat(dir.resolve("out").resolve("results.json")).doesNotExist();
    }

    @Test
    void an_unreachable_target_exits_3_before_sending() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path file = scenario("target: {url: 'http://127.0.0.1:" + port + "/'}\nload: {rate: 10, duration: 1s}\n");
        assertThat(run("run", file.toString(), "--out", dir.resolve("out").toString())).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString()).contains("cannot be reached");
    }

    @Test
    void a_missing_results_folder_is_bad_input_for_report() {
        assertThat(run("report", dir.resolve("nothing").toString())).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("no results.json here");
    }
}
