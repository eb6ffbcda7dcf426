package io.loadsmith.tester.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order of an experiment's runs in a round: the base order rotated by one place per round, so that
 * no arm always runs first (on a cold service) or right after the same neighbour.
 */
public final class RunOrder {

    private RunOrder() {
    }

    /**
     * The base order rotated left by {@code round - 1} places (round 1 runs the base order).
     *
     * @param round from 1
     */
    public static <T> List<T> forRound(List<T> base, int round) {
        if (round < 1) {
            throw new IllegalArgumentException("rounds count from 1 (got " + round + ")");
        }
        List<T> order = new ArrayList<>(base);
        if (!order.isEmpty()) {
            Collections.rotate(order, -((round - 1) % order.size()));
        }
        return order;
    }
}
