package io.loadsmith.tester.experiment;

import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioException;
import io.loadsmith.tester.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentSpecTest {

    private static final Path EXAMPLES = ServiceProcess.findRoot(Path.of("")).resolve("examples/experiments");

    @Test
    void the_lab_shape_example_reads_as_four_arms_five_rounds_stall_on_and_off() {
        ExperimentSpec spec = ExperimentSpec.parse(EXAMPLES.resolve("lab-shape.yaml"));

        assertThat(spec.rounds()).isEqualTo(5);
        assertThat(spec.durationNanos()).isEqualTo(30_000_000_000L);
        assertThat(spec.stallStates()).containsExactly(true, false);
        assertThat(spec.arms()).extracting(ExperimentSpec.ArmSpec::name)
                .containsExactly("open-546", "closed-1", "closed-16", "paced-8");
        assertThat(spec.arms().get(3).ratePerSecond()).isCloseTo(546.08, org.assertj.core.data.Offset.offset(0.01));
        assertThat(spec.stalls().meanIntervalNanos()).isEqualTo(4_000_000_000L);
        assertThat(spec.service().managedThreads()).isEqualTo(1);
        assertThat(spec.service().restartEachRun()).isTrue();
        assertThat(spec.pairs()).containsExactly(List.of("open-546", "closed-1"), List.of("open-546", "paced-8"),
                List.of("open-546", "closed-16"));
        assertThat(spec.windows()).isEqualTo(new ExperimentSpec.WindowsSpec("open-546", 10_000_000_000L));
    }

    @Test
    void an_arm_becomes_the_base_scenario_with_its_load_and_the_rounds_seed() throws Exception {
        ExperimentSpec spec = ExperimentSpec.parse(EXAMPLES.resolve("lab-shape.yaml"));

        Scenario paced = spec.scenario(spec.arms().get(3), 3, URI.create("http://127.0.0.1:9999"));

        assertThat(paced.tester().model()).isEqualTo(TesterSpec.Model.PACED);
        assertThat(paced.tester().connections()).isEqualTo(8);
        assertThat(paced.connections()).isEqualTo(8);
        assertThat(paced.tester().paceNanos()).isEqualTo(14_650_000L);
        assertThat(paced.tester().seed()).isEqualTo(3);
        assertThat(paced.tester().durationNanos()).isEqualTo(30_000_000_000L);
        assertThat(paced.tester().warmupRequests()).isEqualTo(400);
        assertThat(paced.target().url()).isEqualTo(URI.create("http://127.0.0.1:9999"));
        assertThat(paced.journeys()).hasSize(1);
    }

    @Test
    void the_token_file_is_relative_to_the_experiment_file_or_under_the_home_folder(@TempDir Path dir)
            throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        String experiment = "scenario: s.yaml\nduration: 5s\nstall: on\n"
                + "stalls: {admin: 'http://127.0.0.1:7070', token_file: %s}\n"
                + "arms:\n  - name: a\n    load: {model: closed, connections: 1}\n";
        Path relative = Files.writeString(dir.resolve("e.yaml"), experiment.formatted("secrets/token"));
        Path home = Files.writeString(dir.resolve("h.yaml"), experiment.formatted("~/token"));

        assertThat(ExperimentSpec.parse(relative).stalls().tokenFile()).isEqualTo(dir.resolve("secrets/token"));
        assertThat(ExperimentSpec.parse(home).stalls().tokenFile())
                .isEqualTo(Path.of(System.getProperty("user.home"), "token"));
    }

    @Test
    void an_arm_may_replay_a_profile_beside_seeded_arms_and_no_stall_runs(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        writeProfile(dir.resolve("prod.json"));
        Path file = Files.writeString(dir.resolve("e.yaml"), """
                scenario: s.yaml
                duration: 5s
                stall: both
                stalls: {admin: 'http://127.0.0.1:7070', mean_interval: 1s, duration: 50ms}
                arms:
                  - {name: seeded, load: {model: open, rate: 100}}
                  - {name: replayed, load: {model: open, rate: 100}, stalls: {replay: prod.json, from: 1s, min_duration: 5ms, speed: 2}}
                """);

        ExperimentSpec spec = ExperimentSpec.parse(file);

        assertThat(spec.stallStates()).containsExactly(true, false);
        assertThat(spec.arms().get(0).replay()).isNull();
        ExperimentSpec.ArmSpec replayed = spec.arms().get(1);
        assertThat(replayed.replay().plan().stalls()).containsExactly(
                new io.loadsmith.stall.plan.PlannedStall(0, 500_000_000L, 20_000_000L),
                new io.loadsmith.stall.plan.PlannedStall(1, 1_500_000_000L, 100_000_000L));
        assertThat(replayed.replay().replayed()).extracting(r -> r.label())
                .containsExactly("G1: Pause Young (Normal) (G1 Evacuation Pause)", "G1: Pause Full (System.gc())");
    }

    @Test
    void arms_that_all_replay_on_a_managed_service_need_no_seeded_plan(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        writeProfile(dir.resolve("prod.json"));
        String arms = "arms:\n  - {name: replayed, load: {model: closed, connections: 1}, stalls: {replay: prod.json}}\n";
        Path managed = Files.writeString(dir.resolve("m.yaml"), "scenario: s.yaml\nduration: 5s\nstall: on\n"
                + "service: {managed: scoring-service}\n" + arms);
        Path unmanaged = Files.writeString(dir.resolve("u.yaml"), "scenario: s.yaml\nduration: 5s\nstall: on\n" + arms);
        Path seeded = Files.writeString(dir.resolve("d.yaml"), "scenario: s.yaml\nduration: 5s\nstall: on\n"
                + "service: {managed: scoring-service}\n" + arms + "  - {name: seeded, load: {model: closed, connections: 1}}\n");

        assertThat(ExperimentSpec.parse(managed).stalls()).isNull();
        assertThatThrownBy(() -> ExperimentSpec.parse(unmanaged)).hasMessage("u.yaml:1: needs stalls: {admin: URL} "
                + "(the agent to arm) when stall is on and the service is not managed here (service.managed)");
        assertThatThrownBy(() -> ExperimentSpec.parse(seeded)).hasMessage("d.yaml:1: needs stalls: (the stall plan) "
                + "when stall is on and an arm does not replay a profile");
    }

    @Test
    void an_arms_replay_longer_than_the_runs_is_an_error_at_its_replay(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        writeProfile(dir.resolve("prod.json"));
        Path file = Files.writeString(dir.resolve("e.yaml"), "scenario: s.yaml\nduration: 2s\nstall: on\n"
                + "service: {managed: scoring-service}\n"
                + "arms:\n  - name: replayed\n    load: {model: closed, connections: 1}\n"
                + "    stalls: {replay: prod.json, kind: freeze}\n");

        assertThatThrownBy(() -> ExperimentSpec.parse(file)).hasMessage("e.yaml:8: arms[0].stalls.replay gives a plan "
                + "of 4.2s (its last window ends then), longer than the counted run (duration 2s): narrow from "
                + "and to, raise speed, or lengthen duration");
    }

    private static void writeProfile(Path file) throws java.io.IOException {
        Files.writeString(file, """
                {"schema": "loadsmith.pause-profile/1", "origin": {"kind": "gc-log", "file": "gc.log"},
                 "span_ms": 5000.0, "resolution_ms": 1.0,
                 "pauses": [
                   {"offset_ms": 1000.0, "duration_ms": 3.0, "source": "safepoint", "label": "Safepoint \\"Cleanup\\""},
                   {"offset_ms": 2000.0, "duration_ms": 40.0, "source": "gc", "label": "G1: Pause Young (Normal) (G1 Evacuation Pause)"},
                   {"offset_ms": 4000.0, "duration_ms": 200.0, "source": "gc", "label": "G1: Pause Full (System.gc())"}],
                 "unread": {"lines": 0, "first": []}}
                """);
    }

    @Test
    void an_unknown_key_is_named_with_file_and_line(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        Path file = Files.writeString(dir.resolve("e.yaml"), "scenario: s.yaml\nduration: 5s\nstall: off\n"
                + "arms:\n  - name: a\n    load: {model: closed, connections: 1}\n    lode: 3\n");

        assertThatThrownBy(() -> ExperimentSpec.parse(file)).isInstanceOf(ScenarioException.class)
                .hasMessage("e.yaml:7: arms[0].lode is not a known key (known keys: name, load, stalls)");
        Path near = Files.writeString(dir.resolve("near.yaml"), "scenario: s.yaml\nrouns: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.parse(near))
                .hasMessage("near.yaml:2: rouns is not a known key (did you mean rounds?)");
    }

    @Test
    void a_key_given_twice_is_an_error(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        Path file = Files.writeString(dir.resolve("e.yaml"), "scenario: s.yaml\nduration: 5s\nstall: off\n"
                + "arms:\n  - {name: a, load: {model: closed, connections: 1}}\nduration: 10s\n");

        assertThatThrownBy(() -> ExperimentSpec.parse(file)).isInstanceOf(ScenarioException.class)
                .hasMessage("e.yaml:6: duration is given twice");
    }

    @Test
    void every_example_scenario_and_experiment_parses() throws Exception {
        List<Path> files;
        try (Stream<Path> listed = Stream.concat(Files.list(EXAMPLES), Files.list(EXAMPLES.resolve("../scenarios")))) {
            files = listed.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            if (file.getParent().endsWith("experiments")) {
                ExperimentSpec spec = ExperimentSpec.parse(file);
                URI managed = URI.create((spec.grpcTarget() ? "grpc" : "http") + "://127.0.0.1:9999");
                for (ExperimentSpec.ArmSpec arm : spec.arms()) {
                    assertThat(spec.scenario(arm, 1, managed).target().url()).isEqualTo(managed);
                }
            } else {
                ScenarioParser.parse(file, List.of());
            }
        }
    }

    @Test
    void a_grpc_base_scenario_is_told_apart_by_its_target_url() {
        assertThat(ExperimentSpec.parse(EXAMPLES.resolve("lab-shape-grpc.yaml")).grpcTarget()).isTrue();
        assertThat(ExperimentSpec.parse(EXAMPLES.resolve("lab-shape.yaml")).grpcTarget()).isFalse();
    }

    @Test
    void stalls_on_without_an_agent_to_arm_are_refused(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLES.resolve("../scenarios/score-fixed-rate.yaml"), dir.resolve("s.yaml"));
        Path file = Files.writeString(dir.resolve("e.yaml"), "scenario: s.yaml\nduration: 5s\nstall: on\n"
                + "stalls: {duration: 100ms}\narms:\n  - {name: a, load: {model: closed, connections: 1}}\n");

        assertThatThrownBy(() -> ExperimentSpec.parse(file))
                .hasMessage("e.yaml:4: stalls needs admin: the agent's admin URL (or a managed service: service.managed)");
    }
}
