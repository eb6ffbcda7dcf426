package io.loadsmith.tester.align;

/**
 * A window of time that a run's requests are counted against, on the tester's clock: an injected stall
 * ({@link StallWindow}) or a pause the service's observer saw ({@link AlignedPause}).
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
     * The replica whose agent recorded it (its place in the run's list of agents), or
     * {@link StallWindow#NO_REPLICA} when the run had one agent.
     */
    default int replica() {
        return StallWindow.NO_REPLICA;
    }

    /**
     * Whether a request served by replica {@code servedBy} ({@link StallWindow#NO_REPLICA}: it does not say)
     * counts for this window: always when either is {@link StallWindow#NO_REPLICA} (a request that does not
     * say which replica served it counts against every replica's windows), else only when they are the same
     * replica.
     */
    default boolean counts(int servedBy) {
        return servedBy < 0 || replica() < 0 || servedBy == replica();
    }
}
