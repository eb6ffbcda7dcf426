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
}
