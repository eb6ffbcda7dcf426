package io.loadsmith.stall.observe;

/**
 * Totals since the observer started (dropped windows included).
 *
 * @param safepoints       safepoint windows
 * @param safepointNanos   their summed duration
 * @param sleeper          sleeper windows
 * @param sleeperNanos     their summed duration
 * @param hostSleeper      sleeper windows that overlap no safepoint ({@link PauseWindow#HOST})
 * @param droppedRecords   windows dropped to keep memory bounded
 */
public record PauseTotals(long safepoints, long safepointNanos, long sleeper, long sleeperNanos, long hostSleeper,
                          long droppedRecords) {
}
