package io.loadsmith.stall.control;

import io.loadsmith.stall.plan.StallKind;

/**
 * One stall window as it really happened. All times are nanoseconds on the controller's clock
 * ({@code System.nanoTime()} in production).
 *
 * @param index              the stall's index in its plan (the same as in the planned stalls of its run)
 * @param plannedStartNanos  when the plan wanted it to start
 * @param startNanos         when the window really opened
 * @param endNanos           when it stopped holding requests: {@code startNanos} + the planned duration when
 *                           it ran its course (from then on the gate holds nobody, even if the controller's
 *                           thread closes the window a little later), or the moment it was cut short by a
 *                           disarm or a new arm; for a freeze, when the kernel continued the process
 * @param held               requests the gate held in this window (0 for a freeze: nobody reaches the gate)
 * @param kind               how the window held the service
 * @param runId              the run it belongs to
 * @param startUncertaintyNanos a freeze's: how long after {@code startNanos} the stop could have landed (0 for
 *                           the other kinds, whose edges are the controller's own clock reads)
 * @param endUncertaintyNanos   a freeze's: how long after {@code endNanos} the process could have run again
 */
public record StallRecord(long index, long plannedStartNanos, long startNanos, long endNanos, long held,
                          StallKind kind, String runId, long startUncertaintyNanos, long endUncertaintyNanos) {

    /** A window of the gate (block or spin), its edges exact on the controller's clock. */
    public StallRecord(long index, long plannedStartNanos, long startNanos, long endNanos, long held,
                       StallKind kind, String runId) {
        this(index, plannedStartNanos, startNanos, endNanos, held, kind, runId, 0, 0);
    }

    /** How long the window really lasted. */
    public long durationNanos() {
        return endNanos - startNanos;
    }
}
