package io.loadsmith.stall.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.loadsmith.stall.clock.ManualClock;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The controller's freeze windows on a manual clock, with a freezer that moves the clock as a stopped process
 * would see it: what it asks the freezer, what it records, and what it refuses. The real freezer, in a
 * child JVM, is the agent's FreezeIT.
 */
class FreezeWindowsTest {

    private static final long MS = 1_000_000L;
    private static final long LATE_WAKE_NANOS = 40_000;

    private final ManualClock clock = new ManualClock();
    private final List<long[]> asked = new CopyOnWriteArrayList<>();

    /** Stops "the process" from the start to the end it is given; its own thread runs {@link #LATE_WAKE_NANOS} after. */
    private final Freezer stopping = new Freezer() {
        @Override
        public Optional<String> unavailable() {
            return Optional.empty();
        }

        @Override
        public FreezeEdges freeze(long startNanos, long endNanos) {
            long askedAt = clock.nanoTime();
            clock.set(endNanos + LATE_WAKE_NANOS);
            asked.add(new long[] {askedAt, startNanos, endNanos}); // after the clock moved: the test moves it next
            return new FreezeEdges(startNanos, endNanos, 3_000, LATE_WAKE_NANOS);
        }
    };

    private static StallPlan freezes(long... offsetAndDurationMillis) {
        List<PlannedStall> stalls = new java.util.ArrayList<>();
        for (int i = 0; i < offsetAndDurationMillis.length; i += 2) {
            stalls.add(new PlannedStall(i / 2, offsetAndDurationMillis[i] * MS, offsetAndDurationMillis[i + 1] * MS));
        }
        return StallPlan.explicit(stalls, StallKind.FREEZE);
    }

    @Test
    void each_window_is_handed_to_the_freezer_ahead_of_its_planned_start_with_its_planned_edges_and_keeps_its_edges() {
        clock.set(1_000 * MS);
        try (StallController controller = new StallController(clock, new StallGate(), stopping)) {
            ArmResult armed = controller.arm(freezes(0, 100, 150, 20, 300, 30));
            await().atMost(Duration.ofSeconds(10)).until(() -> asked.size() == 1);
            assertThat(asked.get(0)).containsExactly(1_000 * MS, 1_000 * MS, 1_100 * MS);

            long handedAt = 1_150 * MS - StallController.FREEZE_LEAD_NANOS + MS; // inside the lead, before the start
            clock.set(handedAt);
            await().atMost(Duration.ofSeconds(10)).until(() -> asked.size() == 2);
            assertThat(asked.get(1)).as("asked at, start, end").containsExactly(handedAt, 1_150 * MS, 1_170 * MS);

            clock.set(1_310 * MS); // the controller ran 10 ms after the third window's planned start
            await().atMost(Duration.ofSeconds(10)).until(() -> controller.stalls(armed.runId(), 0).stalls().size() == 3);
            assertThat(asked.get(2)).as("a late freeze starts now and keeps its length")
                    .containsExactly(1_310 * MS, 1_310 * MS, 1_340 * MS);

            List<StallRecord> windows = controller.stalls(armed.runId(), 0).stalls();
            assertThat(windows.get(0)).isEqualTo(new StallRecord(0, 1_000 * MS, 1_000 * MS, 1_100 * MS,
                    0, StallKind.FREEZE, armed.runId(), 3_000, LATE_WAKE_NANOS));
            assertThat(windows.get(1)).isEqualTo(new StallRecord(1, 1_150 * MS, 1_150 * MS, 1_170 * MS,
                    0, StallKind.FREEZE, armed.runId(), 3_000, LATE_WAKE_NANOS));
            assertThat(windows.get(2).plannedStartNanos()).isEqualTo(1_300 * MS);
            assertThat(windows.get(2).startNanos()).isEqualTo(1_310 * MS);
            assertThat(controller.totals().stalls()).isEqualTo(3);
            assertThat(controller.totals().held()).isZero();
            assertThat(controller.lastFreezeFailure()).isNull();
        }
    }

    @Test
    void a_freeze_plan_is_refused_with_the_freezers_reason_and_other_kinds_still_arm() {
        try (StallController controller = new StallController(clock, new StallGate(), Freezer.refusing("not Linux"))) {
            assertThatThrownBy(() -> controller.arm(freezes(10, 5)))
                    .isInstanceOf(IllegalStateException.class).hasMessage("freeze is not available here: not Linux");
            assertThat(controller.armed()).isFalse();
            assertThat(controller.freezer().status()).isEqualTo("not Linux");
            controller.arm(StallPlan.explicit(List.of(new PlannedStall(0, 10 * MS, 5 * MS)), StallKind.BLOCK));
            assertThat(controller.armed()).isTrue();
        }
        try (StallController plain = new StallController(clock, new StallGate())) {
            assertThatThrownBy(() -> plain.arm(freezes(10, 5))).hasMessageContaining("need the loadsmith agent");
        }
    }

    @Test
    void a_freeze_that_fails_disarms_the_run_and_says_why() {
        Freezer failing = new Freezer() {
            @Override
            public Optional<String> unavailable() {
                return Optional.empty();
            }

            @Override
            public FreezeEdges freeze(long startNanos, long endNanos) {
                throw new IllegalStateException("timer_settime failed: errno 22");
            }
        };
        try (StallController controller = new StallController(clock, new StallGate(), failing)) {
            ArmResult armed = controller.arm(freezes(0, 10, 20, 10));
            await().atMost(Duration.ofSeconds(10)).until(() -> controller.lastFreezeFailure() != null);
            assertThat(controller.lastFreezeFailure()).isEqualTo("0: timer_settime failed: errno 22");
            assertThat(controller.armed()).isFalse();
            assertThat(controller.stalls(armed.runId(), 0).stalls()).isEmpty();
        }
    }
}
