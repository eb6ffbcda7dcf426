package io.loadsmith.tester.record;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * What a finished counted run recorded: the figures its result is built from. A {@link RunRecorder} is one;
 * {@link LaneMerge} makes one of the recorders of a run's lanes. Histograms in µs ({@link Histograms}).
 */
public interface Recording {

    /** The counted run's start; intended seconds are counted from it. */
    long startNanos();

    /** The whole run: both latencies and counts. */
    StepStats total();

    /** Per step id, in id order. */
    Map<Integer, StepStats> steps();

    /** The expected-interval estimate (µs), or null when no interval was given. */
    Histogram estimated();

    /** The expected interval of {@link #estimated()}, µs (0 when none). */
    long expectedIntervalMicros();

    /** Actual − intended send, µs, of every sent request that ended. */
    Histogram sendLateness();

    /** Actual send − the moment the engine asked to send, µs: the tester's and transport's own delay. */
    Histogram dispatchLateness();

    long scheduled();

    long skipped();

    long serviceAboveObjective();

    long correctedAboveObjective();

    /** Requests counted in a later second's interval than their own (their second was already written). */
    long lateToInterval();

    /** The latest actual send of a request that ended (Long.MIN_VALUE when none was sent). */
    long lastSentNanos();

    /** The seconds of the timeline, in order. */
    List<SecondSummary> timeline();
}
