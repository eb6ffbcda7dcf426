package io.loadsmith.stall.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits on a real clock until a moment, with microsecond accuracy: parks while the deadline is far, then
 * spins the last stretch ({@code spinNanos}), because a park on Linux returns 50 µs to a few ms late.
 * Used by the stall controller to open and close windows and by the tester to send on schedule.
 */
public final class PreciseWait {

    /** A spin stretch that absorbs typical park overshoot on a loaded 2-core Linux box. */
    public static final long DEFAULT_SPIN_NANOS = 200_000;

    private PreciseWait() {
    }

    /**
     * Returns once {@code clock.nanoTime() >= deadlineNanos}, or early if the thread is interrupted
     * (the interrupt flag stays set).
     *
     * @return true if the deadline was reached, false if interrupted first
     */
    public static boolean until(Clock clock, long deadlineNanos, long spinNanos) {
        long remaining;
        while ((remaining = deadlineNanos - clock.nanoTime()) > spinNanos) {
            LockSupport.parkNanos(remaining - spinNanos);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        while (deadlineNanos - clock.nanoTime() > 0) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** {@link #until(Clock, long, long)} with {@link #DEFAULT_SPIN_NANOS}. */
    public static boolean until(Clock clock, long deadlineNanos) {
        return until(clock, deadlineNanos, DEFAULT_SPIN_NANOS);
    }
}
