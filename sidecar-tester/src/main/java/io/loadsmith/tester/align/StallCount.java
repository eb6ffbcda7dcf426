package io.loadsmith.tester.align;

/**
 * What one tester did around one stall. Every count is of requests of the counted run.
 *
 * @param index           the stall's index in its plan
 * @param startNanos      when the stall started, on the tester's clock
 * @param endNanos        when it ended, on the tester's clock
 * @param held            requests the agent's gate held (the agent's own count, for comparison)
 * @param sentDuring      requests actually sent inside the window ({@code start <= sent < end})
 * @param intendedDuring  requests whose intended send fell inside the window
 * @param inFlightAtStart requests sent before the start and not yet ended at it
 * @param overlapping     requests whose lifetime, from intended send to end, overlaps the window
 * @param met             whether the whole window lies inside the counted span of the run
 * @param replica         the replica whose agent recorded it ({@link StallWindow#replica()})
 */
public record StallCount(int index, long startNanos, long endNanos, long held, long sentDuring,
                         long intendedDuring, long inFlightAtStart, long overlapping, boolean met, int replica) {

    /** A stall of the run's one agent. */
    public StallCount(int index, long startNanos, long endNanos, long held, long sentDuring, long intendedDuring,
                      long inFlightAtStart, long overlapping, boolean met) {
        this(index, startNanos, endNanos, held, sentDuring, intendedDuring, inFlightAtStart, overlapping, met,
                StallWindow.NO_REPLICA);
    }
}
