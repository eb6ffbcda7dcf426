package io.loadsmith.stall.control;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.gate.GateWindow;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.awaitility.core.ConditionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The controller with real threads on the real clock. Timing bounds are generous (a loaded, shared 2-core
 * box): released no earlier than the end, and within 250 ms after it. Precise figures are in
 * docs/benchmarks.md.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StallControllerIT {

    private static final long MS = 1_000_000L;
    /**
     * How late after its moment a release or a window's end may be: wide enough for 64 threads to wake on
     * a shared 2-core box under load (50 ms failed once at a load average of 25-40), narrow enough to catch
     * a gate that holds a request for another window or a tick. The gate's precision is
     * StallTimingBenchmark's (docs/benchmarks.md), not a test's.
     */
    private static final long SLACK_NANOS = 250 * MS;

    private final Clock clock = Clock.system();
    private final StallGate gate = new StallGate();
    private final StallController controller = new StallController(clock, gate);

    @AfterEach
    void close() {
        controller.close();
    }

    private static StallPlan oneStall(long offsetMillis, long durationMillis, StallKind kind) {
        return StallPlan.explicit(List.of(new PlannedStall(0, offsetMillis * MS, durationMillis * MS)), kind);
    }

    @Test
    void sixty_four_threads_entering_a_200_ms_stall_are_all_held_and_all_released_at_its_end() throws Exception {
        AtomicLongArray releasedAtNanos = new AtomicLongArray(64);
        CountDownLatch windowOpen = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(64);
        for (int i = 0; i < 64; i++) {
            int request = i;
            Thread thread = new Thread(() -> {
                try {
                    windowOpen.await();
                } catch (InterruptedException e) {
                    return;
                }
                gate.pass();
                releasedAtNanos.set(request, clock.nanoTime());
                done.countDown();
            }, "request-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        ArmResult armed = controller.arm(oneStall(100, 200, StallKind.BLOCK));
        awaitOpenWindow();
        windowOpen.countDown();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        StallRecord stall = onlyStall(armed.runId());
        assertThat(stall.held()).isEqualTo(64);
        assertThat(stall.durationNanos()).isGreaterThanOrEqualTo(200 * MS);
        assertThat(stall.plannedStartNanos()).isEqualTo(armed.armedAtNanos() + 100 * MS);
        assertThat(stall.startNanos()).isGreaterThanOrEqualTo(stall.plannedStartNanos());
        long plannedEndNanos = stall.startNanos() + 200 * MS;
        for (int i = 0; i < 64; i++) {
            assertThat(releasedAtNanos.get(i)).as("request %d released", i)
                    .isGreaterThanOrEqualTo(plannedEndNanos)
                    .isLessThan(plannedEndNanos + SLACK_NANOS);
        }
    }

    @Test
    void a_spin_stall_holds_and_releases_like_a_block_stall() throws Exception {
        ArmResult armed = controller.arm(oneStall(50, 100, StallKind.SPIN));
        long[] releasedAtNanos = new long[1];
        Thread request = new Thread(() -> {
            awaitOpenWindow();
            gate.pass();
            releasedAtNanos[0] = clock.nanoTime();
        });
        request.start();
        request.join(10_000);

        StallRecord stall = onlyStall(armed.runId());
        assertThat(stall.kind()).isEqualTo(StallKind.SPIN);
        assertThat(stall.held()).isEqualTo(1);
        assertThat(releasedAtNanos[0]).isBetween(stall.startNanos() + 100 * MS, stall.startNanos() + 100 * MS + SLACK_NANOS);
    }

    @Test
    void a_thread_arriving_as_the_window_closes_is_not_held() throws Exception {
        ArmResult armed = controller.arm(oneStall(50, 100, StallKind.BLOCK));
        GateWindow window = poll().until(gate::openWindow, Objects::nonNull);
        while (clock.nanoTime() - window.endNanos() < 0) { // spins to arrive at the very end of the window
            Thread.onSpinWait();
        }
        long beforeNanos = clock.nanoTime();
        gate.pass();
        long passNanos = clock.nanoTime() - beforeNanos;

        assertThat(passNanos).isLessThan(SLACK_NANOS);
        assertThat(window.held()).isZero();
        assertThat(onlyStall(armed.runId()).held()).isZero();
    }

    @Test
    void disarm_in_the_middle_of_a_stall_releases_everyone_at_once() throws Exception {
        ArmResult armed = controller.arm(oneStall(50, 5_000, StallKind.BLOCK));
        CountDownLatch released = new CountDownLatch(8);
        for (int i = 0; i < 8; i++) {
            Thread thread = new Thread(() -> {
                awaitOpenWindow();
                gate.pass();
                released.countDown();
            });
            thread.setDaemon(true);
            thread.start();
        }
        poll().until(() -> gate.openWindow() != null && gate.openWindow().held() == 8);
        assertThat(released.getCount()).isEqualTo(8);

        long disarmedAtNanos = clock.nanoTime();
        List<StallRecord> stalls = controller.disarm();
        assertThat(released.await(2, TimeUnit.SECONDS)).isTrue();

        assertThat(stalls).hasSize(1);
        assertThat(stalls.get(0).runId()).isEqualTo(armed.runId());
        assertThat(stalls.get(0).held()).isEqualTo(8);
        assertThat(stalls.get(0).endNanos()).isBetween(disarmedAtNanos, disarmedAtNanos + SLACK_NANOS);
        assertThat(controller.armed()).isFalse();
        assertThat(gate.openWindow()).isNull();
    }

    @Test
    void arming_again_replaces_the_pending_plan() throws Exception {
        ArmResult first = controller.arm(oneStall(300, 10, StallKind.BLOCK));
        ArmResult second = controller.arm(StallPlan.explicit(List.of(
                new PlannedStall(0, 20 * MS, 10 * MS), new PlannedStall(1, 60 * MS, 10 * MS)), StallKind.BLOCK));
        awaitDisarmed(controller);
        // past the end of the first plan's stall (300 ms + 10 ms) and the time to record it, had it survived
        poll().until(() -> clock.nanoTime() - (first.armedAtNanos() + 310 * MS + SLACK_NANOS) > 0);

        assertThat(second.runId()).isNotEqualTo(first.runId());
        assertThat(controller.stalls(first.runId(), 0).stalls()).isEmpty();
        assertThat(controller.stalls(second.runId(), 0).stalls()).extracting(StallRecord::index).containsExactly(0L, 1L);
        assertThat(controller.stalls(null, 0).stalls()).hasSize(2);
        assertThat(controller.lastRunId()).isEqualTo(second.runId());
    }

    @Test
    void an_armed_plan_expires_at_its_horizon() throws Exception {
        SeededPlanSpec spec = new SeededPlanSpec(7, 100 * MS, 10 * MS, 50 * MS, 300 * MS);
        ArmResult armed = controller.arm(StallPlan.seeded(spec, StallKind.BLOCK));
        assertThat(controller.armed()).isTrue();
        awaitDisarmed(controller);

        assertThat(clock.nanoTime()).isGreaterThanOrEqualTo(armed.armedAtNanos() + 300 * MS);
        List<StallRecord> stalls = controller.stalls(armed.runId(), 0).stalls();
        assertThat(stalls).hasSize(armed.stalls().size());
        for (int i = 0; i < stalls.size(); i++) {
            assertThat(stalls.get(i).plannedStartNanos()).isEqualTo(armed.armedAtNanos() + armed.stalls().get(i).offsetNanos());
            assertThat(stalls.get(i).startNanos()).isGreaterThanOrEqualTo(stalls.get(i).plannedStartNanos());
            assertThat(stalls.get(i).durationNanos()).isGreaterThanOrEqualTo(10 * MS);
        }
    }

    @Test
    void since_index_pages_through_one_run() throws Exception {
        List<PlannedStall> windows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            windows.add(new PlannedStall(i, (10 + 10L * i) * MS, 2 * MS));
        }
        ArmResult armed = controller.arm(StallPlan.explicit(windows, StallKind.BLOCK));
        awaitDisarmed(controller);

        StallPage from3 = controller.stalls(armed.runId(), 3);
        assertThat(from3.stalls()).extracting(StallRecord::index).containsExactly(3L, 4L);
        assertThat(from3.nextIndex()).isEqualTo(5);
        assertThat(from3.more()).isFalse();
        StallPage after = controller.stalls(armed.runId(), from3.nextIndex());
        assertThat(after.stalls()).isEmpty();
        assertThat(after.nextIndex()).isEqualTo(5);
    }

    @Test
    void memory_stays_bounded_keeping_the_most_recent_windows_and_counting_the_dropped() throws Exception {
        List<PlannedStall> tiny = new ArrayList<>();
        for (int i = 0; i < StallPlan.MAX_STALLS; i++) {
            tiny.add(new PlannedStall(i, 2_000L * i, 1_000));
        }
        controller.arm(StallPlan.explicit(tiny, StallKind.BLOCK));
        poll().atMost(Duration.ofSeconds(30)).until(() -> controller.totals().stalls() == StallPlan.MAX_STALLS);
        ArmResult last = controller.arm(StallPlan.explicit(List.of(
                new PlannedStall(0, 0, 1_000), new PlannedStall(1, 2_000, 1_000), new PlannedStall(2, 4_000, 1_000)),
                StallKind.BLOCK));
        poll().until(() -> controller.totals().stalls() == StallPlan.MAX_STALLS + 3);

        StallTotals totals = controller.totals();
        assertThat(totals.droppedRecords()).isEqualTo(3);
        assertThat(controller.stalls(null, 0).dropped()).isEqualTo(3);
        assertThat(controller.stalls(last.runId(), 0).stalls()).hasSize(3);
        StallPage firstPage = controller.stalls(null, 0);
        assertThat(firstPage.stalls()).hasSize(StallController.PAGE_SIZE);
        assertThat(firstPage.more()).isTrue();
        assertThat(firstPage.stalls().get(0).index()).isEqualTo(3);
    }

    @Test
    void burning_a_core_during_spin_windows_still_closes_them_on_time() throws Exception {
        try (StallController burner = new StallController(clock, new StallGate(), true)) {
            ArmResult armed = burner.arm(oneStall(20, 50, StallKind.SPIN));
            awaitDisarmed(burner);
            StallRecord stall = burner.stalls(armed.runId(), 0).stalls().get(0);
            assertThat(stall.durationNanos()).isBetween(50 * MS, 50 * MS + SLACK_NANOS);
        }
    }

    @Test
    void closing_ends_a_stall_in_progress_and_refuses_new_plans() throws Exception {
        controller.arm(oneStall(10, 5_000, StallKind.BLOCK));
        GateWindow window = poll().until(gate::openWindow, Objects::nonNull);

        controller.close();

        assertThat(window.isClosed()).isTrue();
        assertThat(gate.openWindow()).isNull();
        assertThat(controller.armed()).isFalse();
        assertThatThrownBy(() -> controller.arm(oneStall(10, 10, StallKind.BLOCK)))
                .isInstanceOf(IllegalStateException.class).hasMessage("the stall controller is closed");
    }

    /**
     * Polls every millisecond on the calling thread, for at most 10 s: no spinning, so that waiting threads
     * leave the 2 cores to the controller.
     */
    private static ConditionFactory poll() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .pollInSameThread();
    }

    private void awaitOpenWindow() {
        poll().until(gate::openWindow, Objects::nonNull);
    }

    private static void awaitDisarmed(StallController controller) {
        poll().until(() -> !controller.armed());
    }

    private StallRecord onlyStall(String runId) {
        awaitDisarmed(controller);
        List<StallRecord> stalls = controller.stalls(runId, 0).stalls();
        assertThat(stalls).hasSize(1);
        return stalls.get(0);
    }
}
