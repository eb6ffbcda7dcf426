package io.loadsmith.tester.align;

/**
 * One stall as the agent recorded it, on the tester's clock.
 *
 * @param index      the stall's index in its plan
 * @param startNanos when the gate closed, on the tester's clock
 * @param endNanos   when it opened again, on the tester's clock (> startNanos)
 * @param held       requests the agent's gate held during the window
 */
public record StallWindow(int index, long startNanos, long endNanos, long held) implements AlignedWindow {

    public StallWindow {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("stall " + index + ": end " + endNanos + " before start " + startNanos);
        }
    }

    @Override
    public long durationNanos() {
        return endNanos - startNanos;
    }
}
