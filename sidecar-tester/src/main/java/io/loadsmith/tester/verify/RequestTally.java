package io.loadsmith.tester.verify;

import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.transport.Outcome;
import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.TreeMap;

/**
 * The counts and latencies of one run's requests (or one step's), recomputed record by record from
 * {@code requests.bin} by the definitions of docs/results-json.md: a CANCELLED request is dropped (after the
 * send when it has a send time), any other ended request is sent, and completed when OK, an error otherwise;
 * latencies are of the sent requests that had a send time, in microseconds (nanoseconds rounded to the
 * nearest, 1 µs to 1 hour, 3 significant digits: docs/engine.md).
 */
final class RequestTally {

    static final long HOUR_MICROS = 3_600_000_000L;

    long records;
    long sent;
    long completed;
    long errors;
    long dropped;
    long droppedAfterSend;
    long serviceAbove;
    long correctedAbove;
    final Histogram service = histogram();
    final Histogram corrected = histogram();
    final Histogram estimated = histogram();
    final Histogram sendLateness = histogram();
    final Map<Integer, RequestTally> steps = new TreeMap<>();
    private final long objectiveNanos;
    private final long intervalMicros;

    /**
     * @param objectiveNanos the objective of {@code above_objective} (-1: none)
     * @param intervalMicros the expected interval of {@code latency_ms.estimated} (0: none)
     */
    RequestTally(long objectiveNanos, long intervalMicros) {
        this.objectiveNanos = objectiveNanos;
        this.intervalMicros = intervalMicros;
    }

    static Histogram histogram() {
        return new Histogram(1, HOUR_MICROS, 3);
    }

    /** Nanoseconds to whole microseconds, rounded to the nearest (half up) and kept within [0, 1 h]. */
    static long micros(long nanos) {
        return nanos <= 0 ? 0 : Math.min(Math.floorDiv(nanos + 500, 1000), HOUR_MICROS);
    }

    void add(RequestRecord r) {
        count(r);
        steps.computeIfAbsent(r.step(), s -> new RequestTally(-1, 0)).count(r);
    }

    private void count(RequestRecord r) {
        records++;
        if (r.outcome() == Outcome.CANCELLED) {
            dropped++;
            droppedAfterSend += r.sentNanos() >= 0 ? 1 : 0;
            return;
        }
        sent++;
        if (r.outcome() == Outcome.OK) {
            completed++;
        } else {
            errors++;
        }
        if (r.sentNanos() < 0) {
            return;
        }
        long serviceNanos = r.endNanos() - r.sentNanos();
        long correctedNanos = r.endNanos() - r.intendedNanos();
        service.recordValue(micros(serviceNanos));
        corrected.recordValue(micros(correctedNanos));
        sendLateness.recordValue(micros(r.sentNanos() - r.intendedNanos()));
        if (intervalMicros > 0) {
            estimated.recordValueWithExpectedInterval(micros(serviceNanos), intervalMicros);
        }
        if (objectiveNanos >= 0) {
            serviceAbove += serviceNanos > objectiveNanos ? 1 : 0;
            correctedAbove += correctedNanos > objectiveNanos ? 1 : 0;
        }
    }
}
