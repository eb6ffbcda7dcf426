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
 */
public record PauseWindow(int index, String source, String label, long startNanos, long endNanos,
                          Long timeToSafepointNanos) implements AlignedWindow {

    public PauseWindow {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("pause " + index + ": end " + endNanos + " before start " + startNanos);
        }
    }
}
