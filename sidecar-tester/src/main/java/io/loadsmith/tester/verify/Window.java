package io.loadsmith.tester.verify;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One window of the agent (a stall or a pause), moved onto the tester's clock.
 *
 * @param index       its index, as the agent numbered it
 * @param startNanos  its start on the tester's clock (the agent's {@code start_ns} minus the offset used)
 * @param endNanos    its end on the tester's clock, exclusive
 * @param agent       the agent's object, as kept in the folder (for fields such as {@code held} or {@code label})
 * @param replica     the admin URL of the replica whose agent recorded it, in a run armed on several agents
 *                    (its stall rows' {@code replica}); null with one agent
 */
record Window(long index, long startNanos, long endNanos, JsonNode agent, String replica) {

    /** A window of the run's one agent. */
    Window(long index, long startNanos, long endNanos, JsonNode agent) {
        this(index, startNanos, endNanos, agent, null);
    }

    /**
     * Whether a request served by replica {@code servedBy} (its admin URL; null: its answer named none of the
     * run's replicas) counts for this window: always for a window of no replica and for a request of none,
     * else only when they are the same replica (docs/scale-out.md, "How requests are counted").
     */
    boolean counts(String servedBy) {
        return replica == null || servedBy == null || replica.equals(servedBy);
    }
}
