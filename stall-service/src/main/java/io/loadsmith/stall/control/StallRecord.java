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
 *                           disarm or a new arm
 * @param held               requests the gate held in this window
 * @param kind               how held threads waited
 * @param runId              the run it belongs to
 */
public record StallRecord(long index, long plannedStartNanos, long startNanos, long endNanos, long held,
                          StallKind kind, String runId) {

    /** How long the window really lasted. */
    public long durationNanos() {
        return endNanos - startNanos;
    }
}
