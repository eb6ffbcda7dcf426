package io.loadsmith.tester.verify;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One window of the agent (a stall or a pause), moved onto the tester's clock.
 *
 * @param index       its index, as the agent numbered it
 * @param startNanos  its start on the tester's clock (the agent's {@code start_ns} minus the offset used)
 * @param endNanos    its end on the tester's clock, exclusive
 * @param agent       the agent's object, as kept in the folder (for fields such as {@code held} or {@code label})
 */
record Window(long index, long startNanos, long endNanos, JsonNode agent) {
}
