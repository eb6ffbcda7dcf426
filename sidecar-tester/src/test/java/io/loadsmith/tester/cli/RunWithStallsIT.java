package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code loadsmith run examples/scenarios/score-with-stalls.yaml}, in this JVM, shortened to 3 s at 100/s,
 * against the reference scored service with the real agent in a child JVM: results.json must carry the
 * same aligned fields as {@code demo} writes, and the console the per-stall counts.
 */
class RunWithStallsIT {

    private static final List<String> STALL_FIELDS = List.of("index", "start_ns", "end_ns", "held", "sent_during",
            "intended_during", "in_flight_at_start", "overlapping", "met");

    @Test
    void run_with_stalls_writes_stalls_stall_summary_and_alignment(@TempDir Path dir) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Path out = dir.resolve("out");
        StringWriter console = new StringWriter();
        StringWriter errors = new StringWriter();
        int exit;
        try (ServiceProcess service = ServiceProcess.start(jars, 4, List.of(), dir.resolve("service.log"), 180)) {
            CommandLine cmd = Main.commandLine();
            cmd.setOut(new PrintWriter(console, true));
            cmd.setErr(new PrintWriter(errors, true));
            exit = cmd.execute("run", root.resolve("examples/scenarios/score-with-stalls.yaml").toString(),
                    "--out", out.toString(), "--progress", "none",
                    "--set", "target.url=" + service.url(), "--set", "stalls.admin=" + service.admin().base(),
                    "--set", "stalls.mean_interval=1s", "--set", "load.rate=100", "--set", "load.duration=3s",
                    "--set", "load.warmup=100", "--set", "load.grace=2s");
        }

        assertThat(errors.toString()).isEmpty();
        assertThat(exit).isEqualTo(ExitCodes.OK);
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(results.at("/schema").asText()).isEqualTo("loadsmith/results/v1");
        assertThat(results.at("/runs")).hasSize(1);
        JsonNode run = results.at("/runs/0");
        assertThat(run.get("stall").asBoolean()).isTrue();
        assertThat(run.get("arm").asText()).isEqualTo("score-with-stalls");
        assertThat(run.get("requests_log").asText()).isEqualTo("requests.bin");
        assertThat(run.get("stalls")).isNotEmpty();
        for (JsonNode stall : run.get("stalls")) {
            for (String field : STALL_FIELDS) {
                assertThat(stall.has(field)).as("%s of stall %s", field, stall).isTrue();
            }
            assertThat(stall.get("end_ns").asLong()).isGreaterThan(stall.get("start_ns").asLong());
        }
        int met = 0;
        long sentInside = 0;
        for (JsonNode stall : run.get("stalls")) {
            if (stall.get("met").asBoolean()) {
                met++;
                sentInside += stall.get("sent_during").asLong();
            }
        }
        JsonNode summary = run.get("stall_summary");
        assertThat(summary.get("stalls_met").asInt()).isPositive().isEqualTo(met);
        assertThat(summary.get("sent_during_total").asLong()).isPositive().isEqualTo(sentInside);
        assertThat(summary.get("missing")).isEmpty();
        assertThat(results.at("/alignment/series")).hasSize(1);
        assertThat(results.at("/alignment/series/0/run").asText()).isEqualTo("score-with-stalls");
        assertThat(results.at("/alignment/series/0/stalls_met").asInt()).isEqualTo(met);
        assertThat(results.at("/alignment/bin_ms").asDouble()).isEqualTo(5.0);
        assertThat(results.at("/slos/0/expr").asText()).isEqualTo("errors < 0.1%");
        assertThat(results.at("/slos/0/pass").asBoolean()).isTrue();
        assertThat(out.resolve("agent-stalls.json")).isNotEmptyFile();
        assertThat(out.resolve("report.html")).isNotEmptyFile();
        assertThat(console.toString()).contains("requests sent inside each stall window")
                .contains("score-with-stalls");
    }
}
