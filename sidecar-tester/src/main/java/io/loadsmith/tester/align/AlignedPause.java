package io.loadsmith.tester.align;

/**
 * One pause the service's observer saw ({@code GET /pauses}, docs/pauses.md), on the tester's clock.
 *
 * @param index                 its index among the agent's observed pauses
 * @param source                {@code safepoint} or {@code sleeper}
 * @param label                 a safepoint's VM operation (and collector and cause), or a sleeper window's
 *                              {@code attributed}, {@code host} or {@code unattributed}
 * @param startNanos            where it starts, on the tester's clock
 * @param endNanos              where it ends, on the tester's clock (>= startNanos)
 * @param timeToSafepointNanos  how long bringing the threads to the safepoint took; null for a sleeper window
 * @param replica               the replica whose agent saw it (its place in the run's list of agents), or
 *                              {@link StallWindow#NO_REPLICA} when the run had one agent
 */
public record AlignedPause(int index, String source, String label, long startNanos, long endNanos,
                          Long timeToSafepointNanos, int replica) implements AlignedWindow {

    public AlignedPause {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("pause " + index + ": end " + endNanos + " before start " + startNanos);
        }
    }

    /** A pause of the run's one agent. */
    public AlignedPause(int index, String source, String label, long startNanos, long endNanos,
                       Long timeToSafepointNanos) {
        this(index, source, label, startNanos, endNanos, timeToSafepointNanos, StallWindow.NO_REPLICA);
    }

    /** The same pause, seen by replica {@code value}'s agent. */
    public AlignedPause withReplica(int value) {
        return new AlignedPause(index, source, label, startNanos, endNanos, timeToSafepointNanos, value);
    }
}
