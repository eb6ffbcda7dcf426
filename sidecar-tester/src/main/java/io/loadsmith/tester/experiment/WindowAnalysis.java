package io.loadsmith.tester.experiment;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a shorter test would have reported: a long run's requests cut into consecutive windows by
 * intended send (from the run's start), the 99th percentile of each window, and how far apart the
 * windows are (highest over lowest). Windows with fewer than {@link #MIN_REQUESTS} requests are left out:
 * their p99 would be their maximum.
 *
 * @param windowNanos the window length
 * @param windows     one entry per window with enough requests, in time order
 * @param minP99Ms    the lowest corrected p99 of a window
 * @param maxP99Ms    the highest
 * @param spread      {@code maxP99Ms / minP99Ms} (1 when there is at most one window)
 */
public record WindowAnalysis(long windowNanos, List<WindowStats> windows, double minP99Ms, double maxP99Ms, double spread) {

    /** A window needs this many requests for its p99 to mean something. */
    public static final int MIN_REQUESTS = 100;

    /**
     * One window.
     *
     * @param fromSeconds    where it starts, in seconds after the run's start
     * @param requests       requests intended in it that ended
     * @param p99Ms          their corrected p99
     * @param p99ServiceMs   their service p99
     */
    public record WindowStats(double fromSeconds, long requests, double p99Ms, double p99ServiceMs) {
    }

    public WindowAnalysis {
        windows = List.copyOf(windows);
    }

    /** Reads a run's per-request log and cuts it into windows of {@code windowNanos}. */
    public static WindowAnalysis of(Path requestLog, long windowNanos) throws IOException {
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("window must be > 0 (got " + windowNanos + " ns)");
        }
        List<Histogram[]> perWindow = new ArrayList<>();
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            long startNanos = records.runStartNanos();
            while (records.hasNext()) {
                RequestRecord r = records.next();
                if (r.intendedNanos() < startNanos || r.sentNanos() < 0 || r.endNanos() < 0) {
                    continue;
                }
                int index = (int) ((r.intendedNanos() - startNanos) / windowNanos);
                while (perWindow.size() <= index) {
                    perWindow.add(new Histogram[] {new Histogram(3), new Histogram(3)});
                }
                perWindow.get(index)[0].recordValue(Math.max(0, r.correctedNanos()));
                perWindow.get(index)[1].recordValue(Math.max(0, r.serviceNanos()));
            }
        }
        List<WindowStats> windows = new ArrayList<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (int i = 0; i < perWindow.size(); i++) {
            Histogram corrected = perWindow.get(i)[0];
            if (corrected.getTotalCount() < MIN_REQUESTS) {
                continue;
            }
            double p99 = corrected.getValueAtPercentile(99) / 1e6;
            windows.add(new WindowStats(i * (windowNanos / 1e9), corrected.getTotalCount(), p99,
                    perWindow.get(i)[1].getValueAtPercentile(99) / 1e6));
            min = Math.min(min, p99);
            max = Math.max(max, p99);
        }
        if (windows.isEmpty()) {
            return new WindowAnalysis(windowNanos, windows, 0, 0, 1);
        }
        return new WindowAnalysis(windowNanos, windows, min, max, min > 0 ? max / min : 1);
    }
}
