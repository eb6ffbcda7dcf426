package io.loadsmith.stall.control;

/**
 * Totals since the controller was made, over every run (dropped records included).
 *
 * @param stalls         windows that have ended
 * @param stalledNanos   their summed real duration
 * @param held           requests the gate held in them
 * @param droppedRecords records dropped to keep memory bounded
 */
public record StallTotals(long stalls, long stalledNanos, long held, long droppedRecords) {
}
