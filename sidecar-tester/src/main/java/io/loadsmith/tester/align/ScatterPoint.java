package io.loadsmith.tester.align;

/**
 * One request in the second panel of the stall-aligned plot.
 *
 * @param offsetNanos    its actual send, relative to the start of the stall it is drawn against
 * @param correctedNanos its corrected latency (end minus intended send)
 */
public record ScatterPoint(long offsetNanos, long correctedNanos) {
}
