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
    long droppedAfterSend;
    final ErrorKinds errorKinds = new ErrorKinds();

    void reset() {
        service.reset();
        corrected.reset();
        completed = errors = dropped = sent = droppedAfterSend = 0;
        errorKinds.reset();
    }

    /** Adds other's counts and latencies to these (lossless: HdrHistogram's add). */
    void add(StepStats other) {
        service.add(other.service);
        corrected.add(other.corrected);
        completed += other.completed;
        errors += other.errors;
        dropped += other.dropped;
        sent += other.sent;
        droppedAfterSend += other.droppedAfterSend;
        errorKinds.add(other.errorKinds);
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

    /** Requests answered without an error (sent = completed + errors). */
    public long completed() {
        return completed;
    }

    /** Requests that ended in an error: an HTTP status or failed check, or refused, reset, timed out. */
    public long errors() {
        return errors;
    }

    /** The {@link #errors()} by kind. */
    public ErrorKinds errorKinds() {
        return errorKinds;
    }

    /** Requests never answered: cancelled at the end of the grace (sent to the socket or not). */
    public long dropped() {
        return dropped;
    }

    /** The dropped that had been committed to the socket before they were cancelled (a part of dropped). */
    public long droppedAfterSend() {
        return droppedAfterSend;
    }

    /**
     * Requests handed to the transport that ended, with an answer or an error (completed + errors); a
     * request cancelled after the grace is dropped instead, even if it reached the socket.
     */
    public long sent() {
        return sent;
    }
}
