package io.loadsmith.tester.agentclient;

import io.loadsmith.tester.align.StallWindow;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClockProbeTest {

    @Test
    void the_probe_with_the_smallest_round_trip_gives_the_offset_and_half_of_it_the_uncertainty() throws IOException {
        // tester clock readings in pairs (t0, t1); the server answers with its own clock, 1_000_000 ahead
        Deque<Long> testerReadings = new ArrayDeque<>(List.of(100L, 900L, 1_000L, 1_040L, 2_000L, 2_300L));
        Deque<Long> serverReadings = new ArrayDeque<>(List.of(1_000_700L, 1_001_019L, 1_002_100L));

        ClockOffset offset = ClockProbe.measure(testerReadings::removeFirst, serverReadings::removeFirst, 3);

        assertThat(offset).isEqualTo(new ClockOffset(1_000_000 - 1, 20, 40, 3));
    }

    @Test
    void an_odd_round_trip_rounds_the_uncertainty_up() throws IOException {
        Deque<Long> testerReadings = new ArrayDeque<>(List.of(0L, 5L));

        ClockOffset offset = ClockProbe.measure(testerReadings::removeFirst, () -> 2L, 1);

        assertThat(offset.uncertaintyNanos()).isEqualTo(3);
        assertThat(offset.offsetNanos()).isEqualTo(0);
    }

    @Test
    void a_server_moment_maps_onto_the_tester_clock_by_subtracting_the_offset() {
        ClockOffset offset = new ClockOffset(250, 10, 20, 1);
        assertThat(offset.toTesterNanos(1_250)).isEqualTo(1_000);
        assertThat(offset.toServerNanos(1_000)).isEqualTo(1_250);
        assertThat(new ServerStall(3, 1_000, 1_250, 2_250, 4, "block", "r").onTesterClock(offset))
                .isEqualTo(new StallWindow(3, 1_000, 2_000, 4));
    }

    @Test
    void a_failing_probe_is_reported() {
        assertThatThrownBy(() -> ClockProbe.measure(() -> 0L, () -> {
            throw new IOException("Connection refused");
        }, 3)).isInstanceOf(IOException.class).hasMessage("Connection refused");
    }

    @Test
    void at_least_one_probe_is_needed() {
        assertThatThrownBy(() -> ClockProbe.measure(() -> 0L, () -> 0L, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void an_offset_within_its_uncertainty_of_zero_aligns_as_the_same_clock() {
        assertThat(new ClockOffset(-900, 1_000, 2_000, 9).forAlignment()).isEqualTo(new ClockOffset(0, 1_000, 2_000, 9));
        assertThat(new ClockOffset(1_001, 1_000, 2_000, 9).forAlignment()).isEqualTo(new ClockOffset(1_001, 1_000, 2_000, 9));
    }
}
