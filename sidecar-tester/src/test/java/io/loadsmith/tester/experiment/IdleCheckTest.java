package io.loadsmith.tester.experiment;

import io.loadsmith.tester.result.Experiment;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IdleCheckTest {

    private static final long S = 1_000_000_000L;

    /** Readings in turn, each taking 2 s of a virtual clock. */
    private static IdleCheck.Probe readings(IdleCheck.Reading... readings) {
        Deque<IdleCheck.Reading> left = new ArrayDeque<>(List.of(readings));
        long[] now = {0};
        return new IdleCheck.Probe() {
            @Override
            public IdleCheck.Reading read() {
                now[0] += 2 * S;
                return left.size() > 1 ? left.poll() : left.peek();
            }

            @Override
            public long nanoTime() {
                return now[0];
            }
        };
    }

    @Test
    void the_check_waits_for_the_previous_service_and_tester_to_exit_and_the_load_to_fall() throws InterruptedException {
        Experiment.IdleResult seen = IdleCheck.waitUntilQuiet(0.95, 20 * S, readings(
                new IdleCheck.Reading(0.97, 0.5, 2, 1, 0),
                new IdleCheck.Reading(0.97, 0.5, 2, 0, 3),
                new IdleCheck.Reading(0.97, 2.4, 2, 0, 0),
                new IdleCheck.Reading(0.96, 1.9, 2, 0, 0)));

        assertThat(seen).isEqualTo(new Experiment.IdleResult(0.96, 0.95, 1.9, 2, 8.0, 0, 0, false));
        assertThat(seen.warning()).isNull();
    }

    @Test
    void a_box_still_busy_at_the_timeout_is_recorded_as_busy_with_a_warning() throws InterruptedException {
        Experiment.IdleResult seen = IdleCheck.waitUntilQuiet(0.95, 5 * S, readings(
                new IdleCheck.Reading(0.612, 3.204, 2, 0, 1)));

        assertThat(seen).isEqualTo(new Experiment.IdleResult(0.612, 0.95, 3.204, 2, 6.0, 0, 1, true));
        assertThat(seen.warning()).isEqualTo("started on a busy box after waiting 6.0 s: CPUs 61.2% idle (wanted 95.0%), "
                + "load average 3.20 on 2 cores, 1 thread(s) of the previous run's tester still running; "
                + "other work shared the cores with this run");
    }

    @Test
    void unknown_idle_share_and_load_do_not_hold_a_run_back() throws InterruptedException {
        Experiment.IdleResult seen = IdleCheck.waitUntilQuiet(0.95, 5 * S, readings(new IdleCheck.Reading(-1, -1, 2, 0, 0)));

        assertThat(seen.busy()).isFalse();
        assertThat(seen.waitedS()).isEqualTo(2.0);
    }
}
