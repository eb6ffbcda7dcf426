package io.loadsmith.stall.control;

import java.util.Objects;
import java.util.Optional;

/**
 * Stops the whole process for a {@code freeze} window and says when it really stopped and went on. The
 * agent's freezer (docs/replaying-pauses.md) arms two kernel timers on {@code CLOCK_MONOTONIC}: one whose
 * signal is {@code SIGCONT} at the window's end, then one whose signal is {@code SIGSTOP} at its start. The
 * kernel stops the process at the start and continues it at the end, however late the caller's own thread
 * runs, so nothing outside the process is needed and it cannot be left stopped.
 */
public interface Freezer {

    /**
     * Why freezing cannot work in this process (not Linux, native calls refused, ...), or empty when it can;
     * may load what the freezer needs (the controller asks when a freeze plan is armed).
     */
    Optional<String> unavailable();

    /** What {@code /health} says of it, without loading anything: "available", "loads on the first freeze" or why not. */
    default String status() {
        return unavailable().orElse("available");
    }

    /**
     * Stops this process from {@code startNanos} until {@code endNanos} on the controller's clock, which must be
     * {@code System.nanoTime} ({@code CLOCK_MONOTONIC} on Linux), and returns once it runs again. Called ahead
     * of {@code startNanos}, never after it.
     *
     * @throws IllegalStateException naming the native call that failed, or saying the process did not stop
     */
    FreezeEdges freeze(long startNanos, long endNanos);

    /** A freezer that refuses every freeze with {@code reason}. */
    static Freezer refusing(String reason) {
        Objects.requireNonNull(reason, "reason");
        return new Freezer() {
            @Override
            public Optional<String> unavailable() {
                return Optional.of(reason);
            }

            @Override
            public FreezeEdges freeze(long startNanos, long endNanos) {
                throw new IllegalStateException(reason);
            }
        };
    }

    /**
     * A freeze as it happened: the process stopped between {@code startNanos} and {@code startNanos +
     * startUncertaintyNanos}, and ran again between {@code endNanos} and {@code endNanos + endUncertaintyNanos}.
     *
     * @param startNanos            when the kernel stopped the process: the stop timer's expiry, or, when the
     *                              freezing thread was seen running after it, the last moment it was seen
     * @param endNanos              when the kernel continued the process: the timer's expiry (the kernel wakes
     *                              every thread in the timer's interrupt), or, when something else continued it
     *                              first, the moment the freezing thread ran again
     * @param startUncertaintyNanos how long the stop could have taken to land after {@code startNanos} (one read
     *                              of the clock by the freezing thread, measured when the freezer was made)
     * @param endUncertaintyNanos   how long after {@code endNanos} the freezing thread itself ran again: an
     *                              upper bound of the kernel's lateness (0 when something else ended the freeze)
     */
    record FreezeEdges(long startNanos, long endNanos, long startUncertaintyNanos, long endUncertaintyNanos) {
    }
}
