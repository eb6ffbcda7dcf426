package io.loadsmith.tester.agentclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.align.AlignedPause;

/**
 * One pause as {@code GET /pauses} reports it (docs/admin-api.md), on the server's clock.
 *
 * @param index                its index among the observed pauses
 * @param source               {@code safepoint} or {@code sleeper}
 * @param label                the safepoint's VM operation (and collector and cause), or the sleeper's
 *                             {@code attributed}, {@code host} or {@code unattributed}
 * @param startNanos           where it starts (server clock)
 * @param endNanos             where it ends (server clock)
 * @param timeToSafepointNanos a safepoint's time to safepoint; null for a sleeper window
 * @param json                 the pause object exactly as the agent served it
 */
public record ServerPause(int index, String source, String label, long startNanos, long endNanos,
                          Long timeToSafepointNanos, JsonNode json) {

    /** The window on the tester's clock. */
    public AlignedPause onTesterClock(ClockOffset offset) {
        return new AlignedPause(index, source, label, offset.toTesterNanos(startNanos), offset.toTesterNanos(endNanos),
                timeToSafepointNanos);
    }
}
