package io.loadsmith.tester.record;

import org.HdrHistogram.Histogram;

/** The two latencies and the counts of one step id (or of the whole run). Latencies in µs. */
public final class StepStats {
    final Histogram service = Histograms.create();
    final Histogram corrected = Histograms.create();
    long completed;
    long errors;
    long dropped;
    long sent;

    void reset() {
        service.reset();
        corrected.reset();
        completed = errors = dropped = sent = 0;
    }

    void record(long serviceMicros, long correctedMicros) {
        corrected.recordValue(correctedMicros);
        service.recordValue(serviceMicros);
    }

    /** Service latency (end − actual send), µs. */
    public Histogram service() {
        return service;
    }

    /** Corrected latency (end − intended send), µs. */
    public Histogram corrected() {
        return corrected;
    }

    /** Requests that ended (OK or an error; not the dropped). */
    public long completed() {
        return completed;
    }

    /** Completed requests that did not end OK. */
    public long errors() {
        return errors;
    }

    /** Requests cancelled at the end of the grace, or never sent because the run ended. */
    public long dropped() {
        return dropped;
    }

    /** Requests committed to the socket. */
    public long sent() {
        return sent;
    }
}
