package io.loadsmith.tester.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The virtual scheduler, on its own clock: what every test of the engine's logic runs on. */
class SchedulerTest {

    @Test
    void virtual_scheduler_runs_events_in_time_order_and_ties_in_the_order_added() {
        VirtualScheduler scheduler = new VirtualScheduler();
        List<String> ran = new ArrayList<>();
        scheduler.at(30, () -> ran.add("c@" + scheduler.nanoTime()));
        scheduler.at(10, () -> ran.add("a@" + scheduler.nanoTime()));
        scheduler.at(10, () -> {
            ran.add("b@" + scheduler.nanoTime());
            scheduler.at(5, () -> ran.add("late@" + scheduler.nanoTime())); // the past runs now
        });

        scheduler.runUntil(20);
        assertThat(ran).containsExactly("a@10", "b@10", "late@10");
        assertThat(scheduler.nanoTime()).isEqualTo(20);

        scheduler.runAll();
        assertThat(ran).containsExactly("a@10", "b@10", "late@10", "c@30");
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void the_caller_drives_the_virtual_scheduler_until_done_or_out_of_events() {
        VirtualScheduler scheduler = new VirtualScheduler();
        List<Long> ran = new ArrayList<>();
        for (long t = 10; t <= 50; t += 10) {
            long at = t;
            scheduler.at(at, () -> ran.add(at));
        }
        assertThat(scheduler.drivenByCaller()).isTrue();

        assertThat(scheduler.driveUntil(() -> ran.size() == 2)).isTrue();
        assertThat(ran).containsExactly(10L, 20L);
        assertThat(scheduler.pending()).isEqualTo(3);

        assertThat(scheduler.driveUntil(() -> ran.size() == 9)).as("out of events first").isFalse();
        assertThat(ran).containsExactly(10L, 20L, 30L, 40L, 50L);
    }

    @Test
    void a_scheduler_with_a_thread_of_its_own_is_not_driven_by_the_caller() {
        Scheduler threaded = new Scheduler() {
            @Override
            public void at(long nanos, Runnable task) {
                throw new AssertionError("driveUntil must not run anything");
            }

            @Override
            public long nanoTime() {
                return 0;
            }
        };
        assertThat(threaded.drivenByCaller()).isFalse();
        assertThat(threaded.driveUntil(() -> false)).isTrue();
    }
}
