package io.loadsmith.tester.align;

import io.loadsmith.stall.plan.PlannedStall;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MissingStallsTest {

    private static final long MS = 1_000_000L;
    private static final List<PlannedStall> PLAN = List.of(new PlannedStall(0, 1000 * MS, 100 * MS),
            new PlannedStall(1, 3000 * MS, 100 * MS), new PlannedStall(2, 4950 * MS, 100 * MS));

    @Test
    void a_planned_stall_inside_the_counted_span_that_was_not_recorded_is_missing() {
        assertThat(MissingStalls.missing(PLAN, 500 * MS, 5500 * MS, List.of(0, 2))).containsExactly(1);
    }

    @Test
    void a_stall_planned_to_end_past_the_counted_span_is_not_missing() {
        // armed at 0: stall 2 ends at 5050 ms, after the span's end at 5000 ms
        assertThat(MissingStalls.missing(PLAN, 0, 5000 * MS, List.of(0, 1))).isEmpty();
        assertThat(MissingStalls.missing(PLAN, 0, 5050 * MS, List.of(0, 1))).containsExactly(2);
    }

    @Test
    void the_warning_names_the_missing_indices_and_there_is_none_when_nothing_is_missing() {
        assertThat(MissingStalls.warning(List.of(1, 4))).startsWith("2 planned stall(s) inside the counted span did not happen (indices [1, 4])");
        assertThat(MissingStalls.warning(List.of())).isNull();
    }
}
