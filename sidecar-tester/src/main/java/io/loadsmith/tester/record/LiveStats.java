package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a running test has measured so far, for a live progress line on another thread: corrected latency
 * (end − intended send) in an HdrHistogram {@link Recorder} (wait-free for the recording thread; the reader
 * swaps out an interval histogram, typically once a second) and the count of requests ended in an error,
 * by {@link Outcome} (counted on the error path only).
 * The {@link RunRecorder} feeds it from the scheduler's thread; no lock is taken on that path.
 */
public final class LiveStats {

    private final Recorder corrected = new Recorder(1, Histograms.HIGHEST_MICROS,
            Histograms.SIGNIFICANT_DIGITS);
    private final LongAdder ended = new LongAdder();
    private final LongAdder[] errorsByOutcome = new LongAdder[Outcome.values().length];
    private final Histogram sinceStart = Histograms.create();
    private Histogram interval;

    public LiveStats() {
        for (int i = 0; i < errorsByOutcome.length; i++) {
            errorsByOutcome[i] = new LongAdder();
        }
    }

    void record(long correctedMicros) {
        corrected.recordValue(correctedMicros);
    }

    void ended(Outcome outcome) {
        ended.increment();
        if (outcome != Outcome.OK) {
            errorsByOutcome[outcome.ordinal()].increment();
        }
    }

    /**
     * Reader side (one reader thread): takes what was recorded since the last call into the running
     * histogram and returns it (corrected latency since the counted run began, µs). Not for the recorder's
     * thread.
     */
    public synchronized Histogram correctedSoFar() {
        interval = corrected.getIntervalHistogram(interval);
        sinceStart.add(interval);
        return sinceStart;
    }

    /** Requests that ended (with an answer or an error) so far. */
    public long ended() {
        return ended.sum();
    }

    /** Requests that ended in an error so far. */
    public long errors() {
        long sum = 0;
        for (LongAdder count : errorsByOutcome) {
            sum += count.sum();
        }
        return sum;
    }

    /** Requests that ended with this outcome so far (0 for {@link Outcome#OK}: see {@link #ended()}). */
    public long errors(Outcome outcome) {
        return errorsByOutcome[outcome.ordinal()].sum();
    }

    /** The errors so far by outcome, those with none left out, in the order of {@link Outcome}. */
    public Map<Outcome, Long> errorsByOutcome() {
        Map<Outcome, Long> byOutcome = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            long count = errors(outcome);
            if (count > 0) {
                byOutcome.put(outcome, count);
            }
        }
        return byOutcome;
    }
}
