package io.loadsmith.tester.scheduler;

import io.loadsmith.stall.clock.Clock;

import java.util.function.BooleanSupplier;

/**
 * The tester's clock and its only way to wait: {@link #nanoTime()} is now, {@link #at(long, Runnable)} runs
 * a task once at (or just after) a moment. The engine is written against this seam only, so the same
 * engine runs in real time ({@link SystemScheduler}) and in virtual time ({@link VirtualScheduler}), where
 * time jumps from event to event and a 60-second run takes milliseconds.
 *
 * <p>Every task runs on the scheduler's single thread, one at a time, in the order of their moments
 * (ties in the order they were added). {@code at} may be called from any thread of the real scheduler
 * (transport threads post completions this way); the virtual one is single-threaded.
 */
public interface Scheduler extends Clock {

    /** How late a real-time scheduler lets a task run after its moment unless told otherwise: 50 µs. */
    long DEFAULT_PRECISION_NANOS = 50_000;

    /** Runs task once, at or after nanos (on the scheduler's own thread for the real one). */
    void at(long nanos, Runnable task);

    /**
     * True when the caller runs on the scheduler's thread, where a task may act at once instead of being
     * posted with {@link #at}. The default, false, is always safe: the caller posts.
     */
    default boolean inThread() {
        return false;
    }

    /**
     * True for a scheduler with no thread of its own, whose tasks run only while a caller drives it
     * ({@link #driveUntil}): the virtual one. A run on it has every lane on it. The default: false.
     */
    default boolean drivenByCaller() {
        return false;
    }

    /**
     * On a scheduler {@link #drivenByCaller()}, runs its tasks on the caller's thread until {@code done} is
     * true or no task is left, and returns whether {@code done} is true. A scheduler with a thread of its
     * own runs its tasks there: the default returns at once, true (the caller then waits for the result).
     */
    default boolean driveUntil(BooleanSupplier done) {
        return true;
    }

    /**
     * Sets how late a task may run after its moment (never before it): the real-time schedulers wake as
     * late as that allows and run every task due by then together, so a coarse precision costs fewer
     * wake-ups and no spin ({@code load.precision}). Set before a run, from any thread. The default ignores
     * it: virtual time runs every task at its moment.
     */
    default void precision(long nanos) {
    }

    /** nanos as a precision ({@link #precision(long)}, {@code load.precision}): it must be >= 0. */
    static long checkedPrecision(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("precision must be >= 0 ns (got " + nanos + ")");
        }
        return nanos;
    }
}
