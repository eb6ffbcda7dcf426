package io.loadsmith.tester.align;

/**
 * One stall as the agent recorded it, on the tester's clock.
 *
 * @param index      the stall's index in its plan
 * @param startNanos when the gate closed, on the tester's clock
 * @param endNanos   when it opened again, on the tester's clock (> startNanos)
 * @param held       requests the agent's gate held during the window
 * @param replica    the replica whose agent recorded it (its place in the run's list of agents), or
 *                   {@link #NO_REPLICA} when the run had one agent
 */
public record StallWindow(int index, long startNanos, long endNanos, long held, int replica) implements AlignedWindow {

    /** The replica of a window of a run with one agent, and of a request no replica claimed. */
    public static final int NO_REPLICA = -1;

    public StallWindow {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("stall " + index + ": end " + endNanos + " before start " + startNanos);
        }
    }

    /** A window of the run's one agent. */
    public StallWindow(int index, long startNanos, long endNanos, long held) {
        this(index, startNanos, endNanos, held, NO_REPLICA);
    }

    @Override
    public long durationNanos() {
        return endNanos - startNanos;
    }
}
