package io.loadsmith.tester.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsWriterTest {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void results_json_holds_every_core_field_in_snake_case_and_reads_back() throws IOException {
        Simulation.SimulatedTarget target = new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS),
                StallPlan.explicit(List.of(new PlannedStall(0, 2 * S, 500 * MS)), StallKind.BLOCK));
        RunResult paced = Simulation.run(TesterSpec.paced(2, 50 * MS).duration(5 * S).objective(20 * MS).seed(3),
                target, null, dir.resolve("paced"));
        RunResult open = Simulation.run(TesterSpec.open(40).duration(5 * S).objective(20 * MS).seed(3),
                target, null, dir.resolve("open")).with(r -> {
                    r.round = 2;
                    r.stall = true;
                });
        RunResult.Aligned stalls = new RunResult.Aligned(List.of(new RunResult.StallRow(0, 2 * S, 2 * S + 500 * MS, 3, 0, 0,
                1, 1, true)), new RunResult.StallTotals(1, 0, 0.05, true, 20, 1, List.of()), 0, 0, 0, "run-1");
        ResultsFile results = ResultsFile.of(List.of(paced, open.withAlignment("", "open", stalls)))
                .withClock(new ResultsFile.ClockInfo(12, 34))
                .withSlos(List.of(new ResultsFile.SloResult("p99 < 500ms", 510.0, null, false),
                        new ResultsFile.SloResult("errors < 0.1%", null, 0.25, false)));
        Path file = dir.resolve(ResultsWriter.FILE_NAME);

        ResultsWriter.write(file, results);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("schema").asText()).isEqualTo("loadsmith/results/v1");
        assertThat(json.get("clock").get("offset_ns").asLong()).isEqualTo(12);
        assertThat(json.get("clock").get("uncertainty_ns").asLong()).isEqualTo(34);
        assertThat(json.get("slos").get(0).get("value_ms").asDouble()).isEqualTo(510.0);
        assertThat(json.get("slos").get(0).get("value_percent").isNull()).isTrue();
        assertThat(json.get("slos").get(1).get("value_ms").isNull()).isTrue();
        assertThat(json.get("slos").get(1).get("value_percent").asDouble()).isEqualTo(0.25);
        JsonNode run = json.get("runs").get(0);
        for (String field : List.of("name", "tester", "round", "stall", "seed", "counts", "latency_ms",
                "above_objective", "send_lateness_ms", "stalls", "timeline", "spectrum", "steps", "cost",
                "achieved_rate", "warnings", "requests_log", "hlog")) {
            assertThat(run.has(field)).as(field).isTrue();
        }
        assertThat(run.get("tester").get("model").asText()).isEqualTo("paced");
        assertThat(run.get("tester").get("pace_ms").asDouble()).isEqualTo(50.0);
        assertThat(run.get("tester").get("connections").asInt()).isEqualTo(2);
        assertThat(run.get("interrupted").asBoolean()).isFalse();
        for (String count : List.of("scheduled", "sent", "completed", "errors", "dropped", "skipped",
                "dropped_after_send")) {
            assertThat(run.get("counts").has(count)).as(count).isTrue();
        }
        for (String view : List.of("service", "corrected", "estimated")) {
            for (String stat : List.of("p50", "p90", "p99", "p999", "max", "mean")) {
                assertThat(run.get("latency_ms").get(view).has(stat)).as(view + "." + stat).isTrue();
            }
        }
        assertThat(run.get("above_objective").get("threshold_ms").asDouble()).isEqualTo(20.0);
        assertThat(run.get("timeline").get(0).has("t_s")).isTrue();
        assertThat(run.get("timeline")).hasSize(5);
        assertThat(run.get("spectrum").get("corrected").get(0)).hasSize(2);
        assertThat(run.get("cost").has("cpu_ns_per_request")).isTrue();
        assertThat(run.get("requests_log").asText()).isEqualTo("requests.bin");
        assertThat(run.get("hlog").asText()).isEqualTo("latency.hlog");
        JsonNode second = json.get("runs").get(1);
        assertThat(second.get("latency_ms").has("estimated")).isFalse();
        assertThat(second.get("tester").get("rate").asDouble()).isEqualTo(40.0);
        assertThat(second.get("round").asInt()).isEqualTo(2);
        assertThat(second.get("stall").asBoolean()).isTrue();
        assertThat(second.get("stalls").get(0).get("index").asInt()).isZero();

        ResultsFile back = ResultsReader.read(file);
        assertThat(back.runs().get(0).counts()).isEqualTo(paced.counts());
        assertThat(back.runs().get(1).latencyMs()).isEqualTo(open.latencyMs());
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }
}
