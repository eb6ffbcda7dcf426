package io.loadsmith.tester.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.result.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pause profile turned into an explicit plan: exact offsets in nanoseconds, by arithmetic alone. */
class ReplayPlanTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private static final PauseProfile PROFILE = profile(10_000,
            new PauseProfile.Pause(1_000, 20, "gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)"),
            new PauseProfile.Pause(2_500, 3, "safepoint", "Safepoint \"Cleanup\""),
            new PauseProfile.Pause(4_000, 150, "gc", "G1: Pause Full (System.gc())"),
            new PauseProfile.Pause(9_000, 8, "host", "host"));

    @Test
    void the_whole_profile_replays_its_pauses_at_their_offsets_with_their_labels() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL);

        assertThat(replay.plan().stalls()).containsExactly(
                new PlannedStall(0, 1_000 * MS, 20 * MS), new PlannedStall(1, 2_500 * MS, 3 * MS),
                new PlannedStall(2, 4_000 * MS, 150 * MS), new PlannedStall(3, 9_000 * MS, 8 * MS));
        assertThat(replay.plan().kind()).isEqualTo(StallKind.BLOCK);
        assertThat(replay.plan().seededSpec()).isEmpty();
        assertThat(replay.horizonNanos()).isEqualTo(9_008 * MS);
        assertThat(replay.pauses()).isEqualTo(4);
        assertThat(replay.replayed()).containsExactly(
                new RunResult.Replayed("gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)", 1_000, 20.0, 1_000.0, 20.0),
                new RunResult.Replayed("safepoint", "Safepoint \"Cleanup\"", 2_500, 3.0, 2_500.0, 3.0),
                new RunResult.Replayed("gc", "G1: Pause Full (System.gc())", 4_000, 150.0, 4_000.0, 150.0),
                new RunResult.Replayed("host", "host", 9_000, 8.0, 9_000.0, 8.0));
    }

    @Test
    void a_range_takes_the_offsets_in_from_to_and_counts_them_from_from() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.from(2_500 * MS).to(9_000 * MS));

        assertThat(replay.plan().stalls()).containsExactly(new PlannedStall(0, 0, 3 * MS),
                new PlannedStall(1, 1_500 * MS, 150 * MS));
        assertThat(replay.replayed()).extracting(RunResult.Replayed::offsetMs).containsExactly(2_500.0, 4_000.0);
    }

    @Test
    void a_pause_that_starts_before_from_is_left_out_even_when_it_lasts_into_the_range() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.from(1_010 * MS));

        assertThat(replay.replayed()).extracting(RunResult.Replayed::offsetMs).containsExactly(2_500.0, 4_000.0, 9_000.0);
        assertThat(replay.plan().stalls().get(0)).isEqualTo(new PlannedStall(0, 1_490 * MS, 3 * MS));
    }

    @Test
    void pauses_shorter_than_min_duration_are_left_out_and_one_as_long_is_kept() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.minDuration(8 * MS));

        assertThat(replay.replayed()).extracting(RunResult.Replayed::offsetMs).containsExactly(1_000.0, 4_000.0, 9_000.0);
        assertThat(replay.plan().stalls()).extracting(PlannedStall::index).containsExactly(0, 1, 2);
    }

    @Test
    void speed_two_halves_offsets_from_from_and_durations() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.from(1_000 * MS).speed(2));

        assertThat(replay.plan().stalls()).containsExactly(
                new PlannedStall(0, 0, 10 * MS), new PlannedStall(1, 750 * MS, 1_500_000),
                new PlannedStall(2, 1_500 * MS, 75 * MS), new PlannedStall(3, 4_000 * MS, 4 * MS));
        assertThat(replay.replayed()).extracting(RunResult.Replayed::offsetMs)
                .as("the profile's own offsets").containsExactly(1_000.0, 2_500.0, 4_000.0, 9_000.0);
        assertThat(replay.replayed()).extracting(RunResult.Replayed::durationMs)
                .as("the profile's own durations").containsExactly(20.0, 3.0, 150.0, 8.0);
        assertThat(replay.replayed()).extracting(RunResult.Replayed::plannedOffsetMs, RunResult.Replayed::plannedDurationMs)
                .as("the plan's windows").containsExactly(tuple(0.0, 10.0), tuple(750.0, 1.5), tuple(1_500.0, 75.0),
                        tuple(4_000.0, 4.0));
    }

    @Test
    void a_slower_speed_stretches_the_plan() {
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.to(2 * S).speed(0.5));

        assertThat(replay.plan().stalls()).containsExactly(new PlannedStall(0, 2_000 * MS, 40 * MS));
    }

    @Test
    void pauses_that_touch_are_merged_into_one_window_with_the_first_ones_offset() {
        PauseProfile profile = profile(1_000,
                new PauseProfile.Pause(100, 10, "gc", "G1: Pause Full (System.gc())"),
                new PauseProfile.Pause(110, 5, "host", "host"),
                new PauseProfile.Pause(115, 1, "gc", "G1: Pause Full (System.gc())"),
                new PauseProfile.Pause(116.000001, 1, "safepoint", "Safepoint \"Cleanup\""),
                new PauseProfile.Pause(300, 1, "gc", "G1: Pause Remark"));

        ReplayPlan replay = ReplayPlan.of(profile, null, ReplayPlan.ReplayRange.ALL);

        assertThat(replay.plan().stalls()).containsExactly(new PlannedStall(0, 100 * MS, 16 * MS),
                new PlannedStall(1, 116_000_001, 1 * MS), new PlannedStall(2, 300 * MS, 1 * MS));
        assertThat(replay.replayed().get(0)).isEqualTo(new RunResult.Replayed("gc+host",
                "G1: Pause Full (System.gc()) + host", 100, 16.0, 100.0, 16.0));
        assertThat(replay.pauses()).isEqualTo(5);
    }

    @Test
    void pauses_apart_in_the_profile_that_touch_once_scaled_are_merged() {
        PauseProfile profile = profile(1_000, new PauseProfile.Pause(100, 0.000003, "gc", "a"),
                new PauseProfile.Pause(100.000004, 1, "gc", "b"));

        ReplayPlan replay = ReplayPlan.of(profile, null, ReplayPlan.ReplayRange.ALL.speed(2));

        assertThat(replay.plan().stalls()).containsExactly(new PlannedStall(0, 50 * MS, 500_002));
        assertThat(replay.replayed()).extracting(RunResult.Replayed::label).containsExactly("a + b");
    }

    @Test
    void a_profile_whose_pauses_overlap_is_refused_naming_the_file_and_both_pauses() {
        PauseProfile profile = profile(1_000,
                new PauseProfile.Pause(100, 1, "gc", "G1: Pause Remark"),
                new PauseProfile.Pause(924.96, 4.04, "gc", "Z old: Pause Relocate Start"),
                new PauseProfile.Pause(928.824359, 2.175641, "safepoint", "Safepoint \"ZRelocateStartOld\""));

        assertThatThrownBy(() -> ReplayPlan.of(profile, Path.of("prod.json"), ReplayPlan.ReplayRange.ALL.from(500 * MS)))
                .isInstanceOf(ProfileException.class)
                .hasMessage("prod.json: pauses[1] (924.96 ms for 4.04 ms, gc: Z old: Pause Relocate Start) and pauses[2]"
                        + " (928.824359 ms for 2.175641 ms, safepoint: Safepoint \"ZRelocateStartOld\") overlap, and a"
                        + " JVM stops once at a time: read the GC log again with loadsmith pauses from-gc-log (an older"
                        + " reader, at 1 ms stamps, gave a collection's label to another safepoint), or remove the wrong one");
    }

    @Test
    void a_pause_inside_a_longer_one_is_an_overlap_with_the_longer_one_even_after_a_shorter_one() {
        PauseProfile profile = profile(1_000,
                new PauseProfile.Pause(100, 50, "host", "host"),
                new PauseProfile.Pause(110, 1, "safepoint", "Safepoint \"Cleanup\""),
                new PauseProfile.Pause(120, 1, "gc", "G1: Pause Remark"));

        assertThatThrownBy(() -> ReplayPlan.of(profile, null, ReplayPlan.ReplayRange.ALL))
                .hasMessageStartingWith("the profile: pauses[0] (100 ms for 50 ms, host: host) and pauses[1] (110 ms");
    }

    @Test
    void a_speed_keeps_the_gaps_in_proportion_so_windows_apart_stay_apart() {
        PauseProfile profile = profile(1_000, new PauseProfile.Pause(100, 10, "gc", "a"),
                new PauseProfile.Pause(120, 10, "gc", "b"));

        ReplayPlan fast = ReplayPlan.of(profile, null, ReplayPlan.ReplayRange.ALL.speed(1.5));

        assertThat(fast.plan().stalls()).containsExactly(new PlannedStall(0, 66_666_667, 6_666_667),
                new PlannedStall(1, 80 * MS, 6_666_667));
        assertThat(fast.replayed()).extracting(RunResult.Replayed::label).containsExactly("a", "b");
    }

    @Test
    void the_kind_is_the_plans() {
        assertThat(ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.kind(StallKind.SPIN)).plan().kind())
                .isEqualTo(StallKind.SPIN);
    }

    @Test
    void no_pause_in_the_range_is_an_error_naming_the_file_and_the_range() {
        Path file = Path.of("prod.json");

        assertThatThrownBy(() -> ReplayPlan.of(PROFILE, file, ReplayPlan.ReplayRange.ALL.from(5 * S).to(8 * S)))
                .isInstanceOf(ProfileException.class)
                .hasMessage("prod.json: no pause of 4 has its offset in [5000 ms, 8000 ms)");
        assertThatThrownBy(() -> ReplayPlan.of(PROFILE, file, ReplayPlan.ReplayRange.ALL.minDuration(200 * MS)))
                .hasMessage("prod.json: no pause of 4 has its offset in [0 ms, 10000 ms) and lasts at least 200 ms");
    }

    @Test
    void a_range_that_holds_no_time_and_a_speed_not_above_zero_are_errors() {
        Path file = Path.of("prod.json");

        assertThatThrownBy(() -> ReplayPlan.of(PROFILE, file, ReplayPlan.ReplayRange.ALL.from(11 * S)))
                .hasMessage("prod.json: the range [11000 ms, 10000 ms) holds no time: to must be after from "
                        + "(to defaults to the profile's span, 10000 ms)");
        assertThatThrownBy(() -> ReplayPlan.of(PROFILE, file, ReplayPlan.ReplayRange.ALL.speed(0)))
                .hasMessage("prod.json: speed must be > 0 (got 0.0)");
    }

    @Test
    void a_file_that_is_missing_or_not_a_profile_is_an_error_naming_it(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("none.json");
        Path other = Files.writeString(dir.resolve("other.json"), "{\"schema\": \"loadsmith.results/1\"}");

        assertThatThrownBy(() -> ReplayPlan.read(missing, ReplayPlan.ReplayRange.ALL))
                .isInstanceOf(ProfileException.class).hasMessage(missing + ": no such file");
        assertThatThrownBy(() -> ReplayPlan.read(other, ReplayPlan.ReplayRange.ALL))
                .isInstanceOf(ProfileException.class).hasMessageStartingWith(other + ": schema: expected");
    }

    @Test
    void a_profile_written_and_read_back_gives_the_same_plan(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("p.json");
        PauseProfiles.write(file, PROFILE);

        ReplayPlan replay = ReplayPlan.read(file, ReplayPlan.ReplayRange.ALL);

        assertThat(replay.file()).isEqualTo(file);
        assertThat(replay.plan().stalls()).isEqualTo(ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL).plan().stalls());
    }

    static PauseProfile profile(double spanMs, PauseProfile.Pause... pauses) {
        return new PauseProfile(PauseProfile.SCHEMA, new PauseProfile.Origin("gc-log", "gc.log", "G1", "uptime",
                "jvm-start", null), spanMs, 1.0, List.of(pauses), new PauseProfile.Unread(0, List.of()));
    }
}
