package io.loadsmith.stall.jfr;

import io.loadsmith.stall.gate.HoldListener;
import io.loadsmith.stall.plan.StallKind;

/**
 * Where the stall controller reports its windows to JFR: {@link #run} at each arm, {@link Run#opening} as a
 * window opens, {@link Window#closed} as it ends. {@link #forThisJvm()} commits {@code loadsmith.Stall} and
 * {@code loadsmith.HeldRequest} events when this JVM has JFR, and does nothing where it has none (a runtime
 * image without the {@code jdk.jfr} module): this type and its callers name no {@code jdk.jfr} class.
 *
 * <p>While no recording is open (or none enables the events), a window costs one allocation and a few
 * non-inlined calls that return at once, and a held request nothing but a check. Thread-safe.
 */
public interface StallEvents {

    /** Events for this JVM: JFR's when the {@code jdk.jfr} module is there and its classes load, else none. */
    static StallEvents forThisJvm() {
        return JfrAvailability.EVENTS;
    }

    /** Reports nothing. */
    static StallEvents none() {
        return NoStallEvents.INSTANCE;
    }

    /** True if this reports to JFR. */
    boolean reportsToJfr();

    /**
     * An armed run.
     *
     * @param runId       its run id
     * @param testerRunId the run id the client named in its arm, or null when the service made {@code runId}
     * @param seeded      whether the plan was drawn from a seed
     * @param seed        that seed (ignored unless {@code seeded})
     */
    Run run(String runId, String testerRunId, boolean seeded, long seed);

    /** One armed run's windows. */
    interface Run {
        /**
         * A window opens now (JFR's start of its event): call just before reading its start from the clock, and
         * {@link Window#closed} after reading its end, so that the event spans the window.
         *
         * @param plannedStartNanos when the plan wanted it, on the controller's clock
         * @param plannedDurationNanos how long the plan wanted it
         */
        Window opening(long index, StallKind kind, long plannedStartNanos, long plannedDurationNanos);
    }

    /** One window's event, begun. */
    interface Window {
        /** What the window's gate tells of each request it holds (null: nothing to tell). */
        HoldListener holds();

        /** The window ended (JFR's end of its event): commits it with its real edges and what it held. */
        void closed(long startNanos, long endNanos, long held);
    }
}
