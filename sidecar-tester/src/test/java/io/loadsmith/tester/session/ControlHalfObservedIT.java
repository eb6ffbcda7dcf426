package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The control half of a paired experiment is observed like its stalled half: one round of one open arm,
 * stall on and off, against the managed scored service with the real agent in a child JVM. Both runs arm
 * the agent (the control with a plan of no stalls), so both have their service pauses and pause summary,
 * and what ran in the service differs only in the plan: the same observer, JFR stream and sleeper park.
 */
class ControlHalfObservedIT {

    @Test
    void a_stall_off_run_is_observed_and_differs_from_its_stalled_twin_only_in_the_windows(@TempDir Path dir)
            throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        assertThat(ServiceProcess.Jars.under(root).missing()).as("jars the test needs").isNull();
        Path file = dir.resolve("halves.yaml");
        Files.writeString(file, """
                name: halves
                scenario: %s
                rounds: 1
                duration: 3s
                warmup: 50
                grace: 1s
                seed: 3
                stall: both
                stalls: {mean_interval: 1s, duration: 50ms, min_gap: 500ms, kind: block}
                service: {managed: scoring-service, threads: 4, restart: once}
                arms:
                  - name: open-100
                    load: {model: open, arrivals: poisson, rate: 100, max_concurrency: 64}
                """.formatted(root.resolve("examples/scenarios/score-fixed-rate.yaml")));
        Path out = dir.resolve("out");
        StringWriter console = new StringWriter();
        ExperimentRunner.run(ExperimentSpec.parse(file), out, new PrintWriter(console, true));
        String printed = console.toString();

        assertThat(ResultsSchema.problems(out.resolve("results.json"))).as(printed).isEmpty();
        JsonNode runs = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("runs");
        assertThat(runs).hasSize(2);
        JsonNode stalled = runs.get(0).get("stall").asBoolean() ? runs.get(0) : runs.get(1);
        JsonNode control = runs.get(0).get("stall").asBoolean() ? runs.get(1) : runs.get(0);
        assertThat(control.get("stall").asBoolean()).isFalse();

        JsonNode on = stalled.get("agent_activity");
        JsonNode off = control.get("agent_activity");
        assertThat(on.get("plan").asText()).isEqualTo("seeded");
        assertThat(on.get("windows").asInt()).as(printed).isPositive();
        assertThat(off.get("plan").asText()).isEqualTo("none");
        assertThat(off.get("windows").asInt()).isZero();
        for (JsonNode half : new JsonNode[] {on, off}) {
            assertThat(half.get("observing").asBoolean()).as("%s", half).isTrue();
            assertThat(half.get("observer_mode").asText()).isEqualTo("armed");
            assertThat(half.get("observer_running").asBoolean()).as("%s", half).isTrue();
            assertThat(half.get("jfr").asText()).isEqualTo("on");
            assertThat(half.get("sleeper_park_ms").asLong()).isEqualTo(1);
        }
        // the control half's own pause record, as the stalled half has it
        assertThat(control.get("pause_summary")).as("control run: %s", control).isNotNull();
        assertThat(control.get("service_pauses")).isNotNull();
        assertThat(stalled.get("pause_summary")).isNotNull();
        assertThat(out.resolve(control.get("dir").asText()).resolve(ServicePauses.FILE_NAME)).isNotEmptyFile();
        assertThat(control.get("stalls")).isEmpty();
        assertThat(stalled.get("stalls")).isNotEmpty();
        assertThat(control.path("warnings").toString()).doesNotContain("differ besides the stall");
        assertThat(printed).contains("in the service (the plan armed")
                .containsPattern("open-100 +stall on +seeded, \\d+ windows; observer on \\(JFR on, sleeper 1 ms\\)")
                .containsPattern("open-100 +stall off +no stalls; observer on \\(JFR on, sleeper 1 ms\\)");
    }
}
