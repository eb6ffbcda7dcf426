package io.loadsmith.tester.align;

/**
 * A window of time that a run's requests are counted against, on the tester's clock: an injected stall
 * ({@link StallWindow}) or a pause the service's observer saw ({@link PauseWindow}).
 */
public interface AlignedWindow {

    /** Its index among the windows of its kind, as the agent numbered them. */
    int index();

    /** Where it starts, on the tester's clock. */
    long startNanos();

    /** Where it ends, on the tester's clock (>= startNanos). */
    long endNanos();

    /** Its length, in nanoseconds. */
    default long durationNanos() {
        return endNanos() - startNanos();
    }

    /**
     * Whether a request served by replica {@code servedBy} ({@link StallWindow#NO_REPLICA}: it does not say)
     * counts for this window; a window of no particular replica counts every request.
     */
    default boolean counts(int servedBy) {
        return true;
    }
}
