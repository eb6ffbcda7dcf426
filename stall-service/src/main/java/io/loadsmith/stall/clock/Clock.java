package io.loadsmith.stall.clock;

/**
 * A monotonic source of nanoseconds. {@link #system()} is the one implementation in loadsmith that reads
 * {@code System.nanoTime()} (on Linux HotSpot: CLOCK_MONOTONIC, shared by every process on the host);
 * everything else takes a {@code Clock}, so tests can pass a virtual one.
 *
 * <p>Values are only meaningful as differences, like {@code System.nanoTime()}. Implementations are
 * thread-safe.
 */
@FunctionalInterface
public interface Clock {

    /** Now, in nanoseconds on this clock's monotonic timeline. */
    long nanoTime();

    /** The host's monotonic clock ({@code System.nanoTime()}). */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
