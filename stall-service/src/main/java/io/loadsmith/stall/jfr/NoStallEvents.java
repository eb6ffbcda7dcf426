package io.loadsmith.stall.jfr;

import io.loadsmith.stall.gate.HoldListener;
import io.loadsmith.stall.plan.StallKind;

/** Reports nothing: for a JVM without JFR. */
final class NoStallEvents implements StallEvents, StallEvents.Run, StallEvents.Window {

    static final NoStallEvents INSTANCE = new NoStallEvents();

    private NoStallEvents() {
    }

    @Override
    public boolean reportsToJfr() {
        return false;
    }

    @Override
    public Run run(String runId, String testerRunId, boolean seeded, long seed) {
        return this;
    }

    @Override
    public Window opening(long index, StallKind kind, long plannedStartNanos, long plannedDurationNanos) {
        return this;
    }

    @Override
    public HoldListener holds() {
        return null;
    }

    @Override
    public void closed(long startNanos, long endNanos, long held) {
        // nothing
    }
}
