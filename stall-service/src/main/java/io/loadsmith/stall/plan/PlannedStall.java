package io.loadsmith.stall.plan;

/**
 * One stall of a plan: it starts {@code offsetNanos} after arming and lasts {@code durationNanos}.
 *
 * @param index         position in the plan, from 0
 * @param offsetNanos   start, in nanoseconds after the moment of arming (>= 0)
 * @param durationNanos length of the window in nanoseconds (> 0)
 */
public record PlannedStall(int index, long offsetNanos, long durationNanos) {

    /** End of the window, in nanoseconds after arming. */
    public long endOffsetNanos() {
        return offsetNanos + durationNanos;
    }
}
