package io.loadsmith.stall.plan;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StallPlanTest {

    private static final long MS = 1_000_000L;

    private static SeededPlanSpec labSpec(long seed, long horizonNanos) {
        return new SeededPlanSpec(seed, 4000 * MS, 100 * MS, 500 * MS, horizonNanos);
    }

    @Test
    void the_same_inputs_give_the_same_plan() {
        StallPlan first = StallPlan.seeded(labSpec(7, 600_000 * MS), StallKind.BLOCK);
        StallPlan second = StallPlan.seeded(labSpec(7, 600_000 * MS), StallKind.BLOCK);
        assertThat(first.stalls()).isEqualTo(second.stalls()).isNotEmpty();
    }

    @Test
    void another_seed_gives_another_plan() {
        StallPlan seven = StallPlan.seeded(labSpec(7, 600_000 * MS), StallKind.BLOCK);
        StallPlan eight = StallPlan.seeded(labSpec(8, 600_000 * MS), StallKind.BLOCK);
        assertThat(seven.stalls().get(0).offsetNanos()).isNotEqualTo(eight.stalls().get(0).offsetNanos());
    }

    @Test
    void offsets_match_the_golden_file() throws IOException {
        List<String> expected = goldenLines();
        List<String> actual = new ArrayList<>();
        for (long seed : new long[] {1, 7, 42, -3}) {
            List<PlannedStall> stalls = StallPlan.seeded(labSpec(seed, 3_600_000 * MS), StallKind.BLOCK).stalls();
            for (int i = 0; i < 20; i++) {
                actual.add(seed + "," + i + "," + stalls.get(i).offsetNanos());
            }
        }
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    private static List<String> goldenLines() throws IOException {
        try (InputStream in = StallPlanTest.class.getResourceAsStream("/plan-golden.csv")) {
            assertThat(in).as("plan-golden.csv on the test class path").isNotNull();
            List<String> lines = new ArrayList<>(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
            assertThat(lines.remove(0)).isEqualTo("seed,index,offset_ns");
            return lines;
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 7, 42, 1234567})
    void the_mean_gap_of_ten_thousand_stalls_is_within_two_percent_of_the_mean_interval(long seed) {
        // Exp part of mean 1 s: the standard error of a 10,000-gap mean is 10 ms (0.5 %), so 2 % is 4 of them.
        SeededPlanSpec spec = new SeededPlanSpec(seed, 2000 * MS, 100 * MS, 1000 * MS, 10_000L * 2200 * MS);
        List<PlannedStall> stalls = StallPlan.seeded(spec, StallKind.BLOCK).stalls();
        assertThat(stalls.size()).isGreaterThanOrEqualTo(10_000);
        double meanGapNanos = stalls.get(9_999).offsetNanos() / 10_000.0;
        assertThat(meanGapNanos).isBetween(0.98 * 2000 * MS, 1.02 * 2000 * MS);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 7, 42})
    void no_gap_is_shorter_than_min_gap(long seed) {
        List<PlannedStall> stalls = StallPlan.seeded(
                new SeededPlanSpec(seed, 600 * MS, 100 * MS, 500 * MS, 3_600_000 * MS), StallKind.BLOCK).stalls();
        assertThat(stalls.get(0).offsetNanos()).isGreaterThanOrEqualTo(500 * MS);
        for (int i = 1; i < stalls.size(); i++) {
            assertThat(stalls.get(i).offsetNanos() - stalls.get(i - 1).offsetNanos()).isGreaterThanOrEqualTo(500 * MS);
        }
    }

    @Test
    void every_stall_ends_within_the_horizon() {
        StallPlan plan = StallPlan.seeded(labSpec(7, 60_000 * MS), StallKind.SPIN);
        assertThat(plan.stalls()).allSatisfy(s -> assertThat(s.endOffsetNanos()).isLessThanOrEqualTo(60_000 * MS));
        assertThat(plan.kind()).isEqualTo(StallKind.SPIN);
        assertThat(plan.horizonNanos()).isEqualTo(60_000 * MS);
    }

    @Test
    void mean_equal_to_min_gap_gives_evenly_spaced_stalls() {
        List<PlannedStall> stalls = StallPlan.seeded(
                new SeededPlanSpec(3, 500 * MS, 100 * MS, 500 * MS, 2_000 * MS), StallKind.BLOCK).stalls();
        assertThat(stalls).extracting(PlannedStall::offsetNanos).containsExactly(500 * MS, 1000 * MS, 1500 * MS);
    }

    @Test
    void nonsense_inputs_are_refused_naming_the_field() {
        assertRefused(new SeededPlanSpec(1, 4000 * MS, 0, 500 * MS, 60_000 * MS), "duration", "duration: must be > 0 (got 0.0 ms)");
        assertRefused(new SeededPlanSpec(1, 4000 * MS, 100 * MS, 50 * MS, 60_000 * MS), "min_gap",
                "min_gap: must be >= duration, start to start (got 50.0 ms < 100.0 ms)");
        assertRefused(new SeededPlanSpec(1, 400 * MS, 100 * MS, 500 * MS, 60_000 * MS), "mean_interval",
                "mean_interval: must be >= min_gap (got 400.0 ms < 500.0 ms)");
        assertRefused(new SeededPlanSpec(1, 4000 * MS, 100 * MS, 500 * MS, 0), "horizon", "horizon: must be > 0 (got 0.0 ms)");
        assertRefused(new SeededPlanSpec(1, Long.MAX_VALUE, 100 * MS, 500 * MS, 60_000 * MS), "mean_interval",
                "mean_interval: must be at most 1.0E9 ms (got 9.223372036854775E12 ms)");
        assertRefused(new SeededPlanSpec(1, 2 * MS, 1 * MS, 1 * MS, 3_600_000 * MS), "horizon",
                "horizon: the plan would hold more than 100000 stalls; shorten the horizon or lengthen mean_interval");
    }

    private static void assertRefused(SeededPlanSpec spec, String field, String message) {
        assertThatThrownBy(() -> StallPlan.seeded(spec, StallKind.BLOCK))
                .isInstanceOfSatisfying(PlanException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessage(message);
    }

    @Test
    void an_explicit_plan_is_sorted_and_its_horizon_is_the_end_of_its_last_stall() {
        StallPlan plan = StallPlan.explicit(List.of(
                new PlannedStall(0, 900 * MS, 50 * MS), new PlannedStall(0, 500 * MS, 300 * MS)), StallKind.BLOCK);
        assertThat(plan.stalls()).containsExactly(
                new PlannedStall(0, 500 * MS, 300 * MS), new PlannedStall(1, 900 * MS, 50 * MS));
        assertThat(plan.horizonNanos()).isEqualTo(950 * MS);
        assertThat(plan.seededSpec()).isEmpty();
    }

    @Test
    void an_explicit_plan_refuses_overlaps_and_bad_values_naming_the_stall() {
        assertThatThrownBy(() -> StallPlan.explicit(List.of(
                new PlannedStall(0, 500 * MS, 300 * MS), new PlannedStall(0, 700 * MS, 50 * MS)), StallKind.BLOCK))
                .hasMessage("stalls[1].offset: overlaps the stall before it (starts at 700.0 ms, before 800.0 ms)");
        assertThatThrownBy(() -> StallPlan.explicit(List.of(new PlannedStall(0, -1, 300 * MS)), StallKind.BLOCK))
                .hasMessage("stalls[0].offset: must be >= 0 (got -1.0E-6 ms)");
        assertThatThrownBy(() -> StallPlan.explicit(List.of(new PlannedStall(0, 0, 0)), StallKind.BLOCK))
                .hasMessage("stalls[0].duration: must be > 0 (got 0.0 ms)");
        assertThatThrownBy(() -> StallPlan.explicit(List.of(), StallKind.BLOCK))
                .hasMessage("stalls: must list at least one stall (or give a horizon: a plan of no stalls)");
    }

    @Test
    void an_explicit_plan_with_a_horizon_may_hold_no_stalls_and_must_reach_its_last_one() {
        StallPlan none = StallPlan.explicit(List.of(), StallKind.BLOCK, 30_000 * MS);
        assertThat(none.stalls()).isEmpty();
        assertThat(none.horizonNanos()).isEqualTo(30_000 * MS);
        assertThat(none.stalledShare()).isZero();
        StallPlan one = StallPlan.explicit(List.of(new PlannedStall(0, 500 * MS, 300 * MS)), StallKind.BLOCK, 2_000 * MS);
        assertThat(one.horizonNanos()).isEqualTo(2_000 * MS);
        assertThat(one.stalls()).containsExactly(new PlannedStall(0, 500 * MS, 300 * MS));
        assertThatThrownBy(() -> StallPlan.explicit(List.of(new PlannedStall(0, 500 * MS, 300 * MS)), StallKind.BLOCK, 700 * MS))
                .hasMessage("horizon: must reach the end of the last stall (got 700.0 ms, before 800.0 ms)");
        assertThatThrownBy(() -> StallPlan.explicit(List.of(), StallKind.BLOCK, 0))
                .hasMessage("horizon: must be > 0 (got 0.0 ms)");
    }

    @Test
    void stall_kinds_parse_from_their_wire_names() {
        assertThat(StallKind.fromWireName("spin")).isEqualTo(StallKind.SPIN);
        assertThat(StallKind.fromWireName("freeze")).isEqualTo(StallKind.FREEZE);
        assertThatThrownBy(() -> StallKind.fromWireName("nap")).hasMessage("kind: must be block, spin or freeze (got nap)");
    }
}
