package io.loadsmith.tester.session;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.scenario.Slo;
import io.loadsmith.tester.transport.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Evaluates a scenario's SLOs exactly from the per-request log of a run (every request, not a summary):
 * service = end − sent and corrected = end − intended for every request that ended with an answer or an
 * error (cancelled ones are dropped, not measured).
 */
final class SloCheck implements Slo.Measured {

    private final Histogram service = new Histogram(3);
    private final Histogram corrected = new Histogram(3);
    private final List<long[]> latencies = new ArrayList<>();
    private long sent;
    private long errors;

    static SloCheck read(Path requestsLog) throws IOException {
        SloCheck check = new SloCheck();
        try (RequestLog.Reader reader = RequestLog.read(requestsLog)) {
            while (reader.hasNext()) {
                check.add(reader.next());
            }
        }
        return check;
    }

    private void add(RequestRecord r) {
        if (r.sentNanos() >= 0) {
            sent++;
        }
        if (r.outcome() == Outcome.CANCELLED || r.endNanos() < 0) {
            return;
        }
        if (r.outcome() != Outcome.OK) {
            errors++;
        }
        long s = r.serviceNanos();
        long c = r.correctedNanos();
        service.recordValue(Math.max(0, s));
        corrected.recordValue(Math.max(0, c));
        latencies.add(new long[] {Math.max(0, s), Math.max(0, c)});
    }

    private Histogram of(boolean isService) {
        return isService ? service : corrected;
    }

    @Override
    public long percentileNanos(boolean isService, double percentile) {
        return of(isService).getValueAtPercentile(percentile);
    }

    @Override
    public long maxNanos(boolean isService) {
        return of(isService).getMaxValue();
    }

    @Override
    public double meanNanos(boolean isService) {
        return of(isService).getMean();
    }

    @Override
    public long countAbove(boolean isService, long thresholdNanos) {
        long count = 0;
        for (long[] l : latencies) {
            if (l[isService ? 0 : 1] > thresholdNanos) {
                count++;
            }
        }
        return count;
    }

    @Override
    public long measured() {
        return latencies.size();
    }

    @Override
    public long sent() {
        return sent;
    }

    @Override
    public long errors() {
        return errors;
    }
}
