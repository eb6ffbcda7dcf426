package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

/**
 * What a {@link PauseObserver} runs, fixed when it is made.
 *
 * @param sleeperThresholdNanos the sleeper reports wake-ups later than its shortest loop by more than this
 * @param withSleeper           false: a thread that only commits the sync events ({@link PauseObserver#safepointsOnly})
 * @param withJfr               false: the sleeper only
 * @param sleepNanos            the sleeper's park
 * @param syncIntervalNanos     how often the sync events are committed
 * @param runGraceNanos         the grace after a run's end ({@link PauseObserver#whenArmed}), or -1: observes until close
 * @param jfrMemory             JFR's buffers, sized before its first start, or null: left as they are
 */
record ObserverSettings(Clock clock, long sleeperThresholdNanos, boolean withSleeper, boolean withJfr, long sleepNanos,
                        long syncIntervalNanos, long runGraceNanos, JfrMemory jfrMemory) {

    /** True for an observer of {@link PauseObserver#whenArmed}, which observes only around runs. */
    boolean whenArmed() {
        return runGraceNanos >= 0;
    }
}
