package io.loadsmith.tester.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.PauseProfiles;
import io.loadsmith.tester.result.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stalls: {replay: profile.json, ...}} in a scenario: the plan it arms, and every error by file, line and key. */
class ReplayStallsTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    @TempDir
    Path dir;

    @BeforeEach
    void writeProfile() throws IOException {
        Files.createDirectories(dir.resolve("profiles"));
        PauseProfiles.write(dir.resolve("profiles/prod.json"), new PauseProfile(PauseProfile.SCHEMA,
                new PauseProfile.Origin("gc-log", "gc.log", "G1", "uptime", "jvm-start", null), 700_000, 1.0, List.of(
                        new PauseProfile.Pause(590_000, 50, "gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)"),
                        new PauseProfile.Pause(600_500, 3, "safepoint", "Safepoint \"Cleanup\""),
                        new PauseProfile.Pause(601_000, 40, "gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)"),
                        new PauseProfile.Pause(630_000, 250, "gc", "G1: Pause Full (System.gc())")),
                new PauseProfile.Unread(0, List.of())));
    }

    @Test
    void a_replay_arms_the_profiles_pauses_in_the_range_from_the_counted_start() {
        Scenario s = parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json, from: 10m, to: 20m, min_duration: 5ms, speed: 2, kind: spin}
                load: {rate: 1, duration: 20s}
                """);

        assertThat(s.stalls().plan().stalls()).containsExactly(new PlannedStall(0, 500 * MS, 20 * MS),
                new PlannedStall(1, 15 * S, 125 * MS));
        assertThat(s.stalls().plan().kind()).isEqualTo(StallKind.SPIN);
        assertThat(s.stalls().replay().file()).isEqualTo(dir.resolve("profiles/prod.json"));
        assertThat(s.stalls().replay().replayed()).containsExactly(
                new RunResult.Replayed("gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)", 601_000, 40.0, 500.0, 20.0),
                new RunResult.Replayed("gc", "G1: Pause Full (System.gc())", 630_000, 250.0, 15_000.0, 125.0));
    }

    @Test
    void a_replay_defaults_to_the_whole_profile_at_its_speed_as_block() {
        Scenario s = parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json}
                load: {rate: 1, duration: 11m}
                """);

        assertThat(s.stalls().plan().stalls()).hasSize(4).first().isEqualTo(new PlannedStall(0, 590 * S, 50 * MS));
        assertThat(s.stalls().plan().kind()).isEqualTo(StallKind.BLOCK);
    }

    @Test
    void a_seeded_plan_has_no_replay() {
        Scenario s = parse("target: {url: 'http://h'}\nstalls: {admin: 'http://127.0.0.1:7070'}\nload: {rate: 1, duration: 1s}\n");

        assertThat(s.stalls().replay()).isNull();
        assertThat(s.stalls().plan().seededSpec()).isPresent();
    }

    @Test
    void a_replayed_plan_longer_than_the_counted_run_is_an_error_at_replay() {
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls:
                  admin: 'http://127.0.0.1:7070'
                  replay: profiles/prod.json
                  from: 10m
                load: {rate: 1, duration: 30s}
                """)).isInstanceOf(ScenarioException.class).hasMessage("s.yaml:4: stalls.replay gives a plan of "
                + "30.25s (its last window ends then), longer than the counted run (load.duration 30s): narrow from "
                + "and to, raise speed, or lengthen load.duration");
    }

    @Test
    void replay_with_a_seeded_key_is_an_error_at_that_key() {
        for (String key : List.of("seed: 7", "mean_interval: 4s", "duration: 100ms", "min_gap: 1s")) {
            String name = key.substring(0, key.indexOf(':'));
            assertThatThrownBy(() -> parse("""
                    target: {url: 'http://h'}
                    stalls:
                      admin: 'http://127.0.0.1:7070'
                      replay: profiles/prod.json
                      %s
                    load: {rate: 1, duration: 20m}
                    """.formatted(key))).hasMessage("s.yaml:5: stalls." + name + " is for a seeded plan, and "
                    + "stalls.replay replays a profile instead: give one of them");
        }
    }

    @Test
    void a_replay_key_without_replay_is_an_error_at_that_key() {
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', speed: 2}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.speed is only for stalls.replay (a pause profile to replay)");
    }

    @Test
    void freeze_is_a_kind_for_a_replay_and_a_seeded_plan_and_another_word_names_the_three() {
        Scenario replayed = parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json, kind: freeze}
                load: {rate: 1, duration: 20m}
                """);
        assertThat(replayed.stalls().plan().kind()).isEqualTo(StallKind.FREEZE);
        Scenario seeded = parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', kind: freeze}
                load: {rate: 1, duration: 20m}
                """);
        assertThat(seeded.stalls().plan().kind()).isEqualTo(StallKind.FREEZE);
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', kind: stop}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.kind must be one of block, spin, freeze (got \"stop\")");
    }

    @Test
    void a_profile_that_is_missing_or_has_no_pause_in_the_range_is_an_error_naming_the_file() {
        Path missing = dir.resolve("profiles/none.json");
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/none.json}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.replay cannot be replayed: " + missing + ": no such file");
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json, to: 5m}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.replay cannot be replayed: " + dir.resolve("profiles/prod.json")
                + ": no pause of 4 has its offset in [0 ms, 300000 ms)");
    }

    @Test
    void a_profile_whose_pauses_overlap_is_an_error_at_replay_naming_the_file_and_both_pauses() throws IOException {
        Path misread = dir.resolve("profiles/misread.json");
        PauseProfiles.write(misread, new PauseProfile(PauseProfile.SCHEMA,
                new PauseProfile.Origin("gc-log", "gc.log", "Z", "uptime", "jvm-start", null), 2_000, 1.0, List.of(
                        new PauseProfile.Pause(924.96, 4.04, "gc", "Z old: Pause Relocate Start"),
                        new PauseProfile.Pause(928.824359, 2.175641, "safepoint", "Safepoint \"ZRelocateStartOld\"")),
                new PauseProfile.Unread(0, List.of())));

        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/misread.json}
                load: {rate: 1, duration: 20s}
                """)).isInstanceOf(ScenarioException.class).hasMessageStartingWith("s.yaml:2: stalls.replay cannot be"
                + " replayed: " + misread + ": pauses[0] (924.96 ms for 4.04 ms, gc: Z old: Pause Relocate Start) and"
                + " pauses[1] (928.824359 ms for 2.175641 ms, safepoint: Safepoint \"ZRelocateStartOld\") overlap");
    }

    @Test
    void to_before_from_and_a_speed_not_above_zero_are_errors_at_their_keys() {
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json, from: 10m, to: 5m}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.to must be > 10m (got 5m)");
        assertThatThrownBy(() -> parse("""
                target: {url: 'http://h'}
                stalls: {admin: 'http://127.0.0.1:7070', replay: profiles/prod.json, speed: 0}
                load: {rate: 1, duration: 20m}
                """)).hasMessage("s.yaml:2: stalls.speed must be > 0 (got 0)");
    }

    @Test
    void the_example_replays_the_gc_logs_pauses_of_a_millisecond_or_more() {
        Path example = ServiceProcess.findRoot(Path.of("")).resolve("examples/scenarios/replay-gc-log.yaml");

        Scenario s = ScenarioParser.parse(example, List.of());

        assertThat(s.stalls().replay().pauses()).isEqualTo(9);
        assertThat(s.stalls().plan().stalls()).hasSize(9).first()
                .isEqualTo(new PlannedStall(0, 106_606_025, 5_393_975));
        assertThat(s.stalls().replay().replayed().get(5))
                .isEqualTo(new RunResult.Replayed("gc", "G1: Pause Full (System.gc())", 3031.161679, 5.838321, 3031.161679,
                        5.838321));
        assertThat(s.stalls().plan().horizonNanos()).isLessThanOrEqualTo(s.tester().durationNanos());
    }

    private Scenario parse(String text) {
        return ScenarioParser.parse(text, "s.yaml", dir, List.of());
    }
}
