package io.loadsmith.stall.jfr;

import io.loadsmith.stall.gate.HoldListener;
import io.loadsmith.stall.plan.StallKind;

/**
 * Commits {@link StallEvent} and {@link HeldRequestEvent}. Made by {@link JfrAvailability} only. What JFR throws is
 * swallowed: on the controller's thread here, on a held thread by its {@code GateWindow}.
 */
final class JfrStallEvents implements StallEvents {

    JfrStallEvents() {
        // load both event classes now, so that a JFR that cannot be used fails here and not in a window
        new StallEvent();
        new HeldRequestEvent();
    }

    @Override
    public boolean reportsToJfr() {
        return true;
    }

    @Override
    public Run run(String runId, String testerRunId, boolean seeded, long seed) {
        return new JfrRun(runId, testerRunId, seeded, seed);
    }

    private record JfrRun(String runId, String testerRunId, boolean seeded, long seed) implements Run {
        @Override
        public Window opening(long index, StallKind kind, long plannedStartNanos, long plannedDurationNanos) {
            try {
                StallEvent event = new StallEvent();
                event.begin();
                return new JfrWindow(event, this, index, kind, plannedStartNanos, plannedDurationNanos);
            } catch (Throwable e) {
                return NoStallEvents.INSTANCE; // the controller's thread must go on whatever JFR does
            }
        }
    }

    private static final class JfrWindow implements Window, HoldListener {
        private final StallEvent event;
        private final JfrRun run;
        private final long index;
        private final StallKind kind;
        private final long plannedStartNanos;
        private final long plannedDurationNanos;

        JfrWindow(StallEvent event, JfrRun run, long index, StallKind kind, long plannedStartNanos,
                  long plannedDurationNanos) {
            this.event = event;
            this.run = run;
            this.index = index;
            this.kind = kind;
            this.plannedStartNanos = plannedStartNanos;
            this.plannedDurationNanos = plannedDurationNanos;
        }

        @Override
        public HoldListener holds() {
            return kind == StallKind.FREEZE ? null : this;
        }

        @Override
        public void closed(long startNanos, long endNanos, long held) {
            try {
                commit(startNanos, endNanos, held);
            } catch (Throwable e) {
                // likewise: the window is recorded for GET /stalls all the same
            }
        }

        private void commit(long startNanos, long endNanos, long held) {
            event.end();
            if (!event.shouldCommit()) {
                return;
            }
            event.index = index;
            event.runId = run.runId();
            event.testerRunId = run.testerRunId();
            event.kind = kind.wireName();
            event.seeded = run.seeded();
            event.seed = run.seeded() ? run.seed() : 0;
            event.plannedStartNanos = plannedStartNanos;
            event.plannedEndNanos = plannedStartNanos + plannedDurationNanos;
            event.startNanos = startNanos;
            event.endNanos = endNanos;
            event.plannedDuration = plannedDurationNanos;
            event.window = endNanos - startNanos;
            event.startLateness = startNanos - plannedStartNanos;
            event.cutShort = endNanos - startNanos < plannedDurationNanos;
            event.held = held;
            event.commit();
        }

        // ---- HoldListener: on the held thread ----

        @Override
        public Object holding() {
            HeldRequestEvent held = new HeldRequestEvent();
            if (!held.isEnabled()) {
                return null;
            }
            held.begin();
            return held;
        }

        @Override
        public void released(Object holding) {
            HeldRequestEvent held = (HeldRequestEvent) holding;
            held.end();
            if (held.shouldCommit()) {
                held.stallIndex = index;
                held.runId = run.runId();
                held.kind = kind.wireName();
                held.commit();
            }
        }
    }
}
