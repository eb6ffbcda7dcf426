package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Records one counted run: both latencies of every request into HdrHistograms (µs, 1 µs to 1 h,
 * 3 digits; see {@link Histograms}) for the run and per step id, per-second interval histograms keyed by
 * intended second on the run's own timeline (written to {@value #HLOG_FILE_NAME} as soon as a second can
 * no longer change), counts above the objective, send lateness, waits, and every request to the
 * per-request log ({@value RequestLog#FILE_NAME}). Memory stays flat: only the seconds with requests
 * still in flight are held.
 *
 * <p>Protocol: {@link #expect} each request when it is created (before it can be sent), then exactly one
 * of {@link #completed} or {@link #dropped}; {@link #advance} after handling an event, {@link #finish} at
 * the end. A second is written once it ended at least one second ago and nothing intended in it is in
 * flight. Every tester creates its requests at or after their intended time (or, paced, while the
 * previous request of the connection is in flight), so a request normally lands in a second still open;
 * one that comes later than that (a scheduler more than a second behind) is counted in the earliest open
 * second and in {@link #lateToInterval()}. Totals are never affected. Single-threaded.
 */
public final class RunRecorder implements AutoCloseable {

    /** The interval log's file name in a run's folder. */
    public static final String HLOG_FILE_NAME = "latency.hlog";
    private static final long SECOND = 1_000_000_000L;

    private final long startNanos;
    private final boolean closedLoop;
    private final long objectiveNanos;
    private final long expectedIntervalMicros;
    private final IntFunction<String> stepNames;
    private final RequestLog.Writer log;
    private final PrintStream hlogStream;
    private final HistogramLogWriter hlog;

    private final StepStats total = new StepStats();
    private final Map<Integer, StepStats> steps = new TreeMap<>();
    private final Histogram estimated = Histograms.create();
    private final Histogram sendLateness = Histograms.create();
    private final Histogram dispatchLateness = Histograms.create();
    private final Histogram waits = Histograms.create();
    private long scheduled;
    private long skipped;
    private long serviceAboveObjective;
    private long correctedAboveObjective;
    private long firstSentNanos = Long.MAX_VALUE;
    private long lastEndNanos = Long.MIN_VALUE;

    private final Map<Long, Second> open = new HashMap<>();
    private final ArrayDeque<Histogram> pool = new ArrayDeque<>();
    private final ArrayDeque<StepStats> stepPool = new ArrayDeque<>();
    private final List<SecondSummary> timeline = new ArrayList<>();
    private long nextFlushSecond;
    private long lateToInterval;
    private long lastSecondSeen = -1;
    private boolean finished;
    private LiveStats live;

    /**
     * @param runDir                folder for {@value RequestLog#FILE_NAME} and {@value #HLOG_FILE_NAME}
     * @param startNanos            the counted run's start; intended seconds are counted from it
     * @param objectiveNanos        requests above it are counted (strictly above)
     * @param expectedIntervalNanos > 0: also record the {@code estimated} view with
     *                              {@code recordValueWithExpectedInterval(service, interval)}; 0: none
     * @param stepNames             names of step ids, for hlog tags
     * @param closedLoop            true for a closed loop, which has no schedule: a request's intended send
     *                              is its actual send (corrected == service); the value given to
     *                              {@link #expect} still keys its second
     */
    public RunRecorder(Path runDir, long startNanos, long objectiveNanos, long expectedIntervalNanos,
                       IntFunction<String> stepNames, boolean closedLoop) throws IOException {
        this.closedLoop = closedLoop;
        Files.createDirectories(runDir);
        this.startNanos = startNanos;
        this.objectiveNanos = objectiveNanos;
        this.expectedIntervalMicros = expectedIntervalNanos > 0 ? Histograms.micros(expectedIntervalNanos) : 0;
        this.stepNames = stepNames;
        this.log = RequestLog.create(runDir.resolve(RequestLog.FILE_NAME), startNanos);
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(runDir.resolve(HLOG_FILE_NAME)));
        this.hlogStream = new PrintStream(out, false, StandardCharsets.UTF_8);
        this.hlog = new HistogramLogWriter(hlogStream);
        hlog.outputComment("loadsmith interval log: one interval per second of intended send time, "
                + "timestamps in seconds from the run's start; values in microseconds (max column in ms)");
        hlog.outputComment("tags: service (end - actual send), corrected (end - intended send), "
                + "service.<step> and corrected.<step> per journey step");
        hlog.outputLogFormatVersion();
        hlog.outputLegend();
    }

    /** Also feeds live (read by another thread, e.g. a progress line); null: none. */
    public void live(LiveStats stats) {
        this.live = stats;
    }

    /** A request intended at intendedNanos now exists (it counts as scheduled). */
    public void expect(long intendedNanos) {
        scheduled++;
        if (Math.floorDiv(intendedNanos - startNanos, SECOND) < nextFlushSecond) {
            lateToInterval++;
        }
        second(intendedNanos).outstanding++;
    }

    /**
     * A request announced with {@link #expect} will not exist after all: a user stop withdrew it before its
     * intended time (it is no longer scheduled).
     */
    public void withdraw(long intendedNanos) {
        scheduled--;
        second(intendedNanos).outstanding--;
    }

    /** Iterations a paced tester did not send (on_late: skip); they count as scheduled and skipped. */
    public void skipped(long count) {
        scheduled += count;
        skipped += count;
    }

    /** A request waited waitNanos for a concurrency slot (or for its connection's previous answer). */
    public void waited(long waitNanos) {
        waits.recordValue(Histograms.micros(waitNanos));
    }

    /**
     * A request ended (OK or not; not cancelled): it counts as sent, and as completed (OK) or as an error.
     *
     * @param releaseNanos when the engine asked the transport to send it (dispatch lateness = sent − release)
     * @param sentNanos    actual send, or -1 if it was never sent (then no latency is recorded)
     */
    public void completed(long intendedNanos, long releaseNanos, long sentNanos, long endNanos,
                          int connection, int step, int status, Outcome outcome) {
        Second second = second(intendedNanos);
        second.outstanding--;
        if (closedLoop && sentNanos >= 0) {
            intendedNanos = sentNanos;
        }
        StepStats stepStats = step(step);
        boolean error = outcome != Outcome.OK;
        total.sent++;
        stepStats.sent++;
        second.count++;
        if (error) {
            total.errors++;
            stepStats.errors++;
            second.errors++;
        } else {
            total.completed++;
            stepStats.completed++;
        }
        lastEndNanos = Math.max(lastEndNanos, endNanos);
        if (sentNanos >= 0) {
            firstSentNanos = Math.min(firstSentNanos, sentNanos);
            long serviceNanos = endNanos - sentNanos;
            long correctedNanos = endNanos - intendedNanos;
            long serviceMicros = Histograms.micros(serviceNanos);
            long correctedMicros = Histograms.micros(correctedNanos);
            total.record(serviceMicros, correctedMicros);
            stepStats.record(serviceMicros, correctedMicros);
            second.service.recordValue(serviceMicros);
            second.corrected.recordValue(correctedMicros);
            second.step(step).record(serviceMicros, correctedMicros);
            if (expectedIntervalMicros > 0) {
                estimated.recordValueWithExpectedInterval(serviceMicros, expectedIntervalMicros);
            }
            if (live != null) {
                live.record(correctedMicros);
            }
            if (serviceNanos > objectiveNanos) {
                serviceAboveObjective++;
            }
            if (correctedNanos > objectiveNanos) {
                correctedAboveObjective++;
            }
            sendLateness.recordValue(Histograms.micros(sentNanos - intendedNanos));
            dispatchLateness.recordValue(Histograms.micros(sentNanos - releaseNanos));
        }
        log.append(intendedNanos, sentNanos, endNanos, connection, step, status, outcome);
        if (live != null) {
            live.ended(error);
        }
    }

    /**
     * A request was dropped (never answered): cancelled at the end of the grace after it was committed to
     * the socket (sentNanos >= 0, also counted in {@link StepStats#droppedAfterSend()}) or before (-1). It
     * does not count as sent.
     */
    public void dropped(long intendedNanos, long sentNanos, long endNanos, int connection, int step) {
        second(intendedNanos).outstanding--;
        if (closedLoop && sentNanos >= 0) {
            intendedNanos = sentNanos;
        }
        total.dropped++;
        step(step).dropped++;
        if (sentNanos >= 0) {
            total.droppedAfterSend++;
            step(step).droppedAfterSend++;
            firstSentNanos = Math.min(firstSentNanos, sentNanos);
        }
        log.append(intendedNanos, sentNanos, endNanos, connection, step, 0, Outcome.CANCELLED);
    }

    /** Writes out every second that ended at least a second before nowNanos and has nothing in flight. */
    public void advance(long nowNanos) {
        while (nextFlushSecond <= lastSecondSeen && startNanos + (nextFlushSecond + 2) * SECOND <= nowNanos) {
            Second second = open.get(nextFlushSecond);
            if (second != null && second.outstanding > 0) {
                return;
            }
            flush(nextFlushSecond);
        }
    }

    /**
     * Ends the recording: writes every remaining second up to the end of the run's duration and closes
     * the files. Anything still outstanding is a bug of the caller and is reported as an exception.
     */
    public void finish(long durationNanos) throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        long lastSecond = Math.max(lastSecondSeen, (durationNanos + SECOND - 1) / SECOND - 1);
        while (nextFlushSecond <= lastSecond) {
            flush(nextFlushSecond);
        }
        close();
    }

    private void flush(long s) {
        Second second = open.remove(s);
        if (second == null) {
            second = new Second(s);
        }
        write(second.service, "service", s);
        write(second.corrected, "corrected", s);
        if (steps.size() > 1) {
            for (Map.Entry<Integer, StepStats> entry : second.steps.entrySet()) {
                String name = stepNames.apply(entry.getKey());
                write(entry.getValue().service, "service." + name, s);
                write(entry.getValue().corrected, "corrected." + name, s);
            }
        }
        timeline.add(new SecondSummary(s, second.count, second.errors,
                ms(second.service, 50), ms(second.service, 99), ms(second.corrected, 50), ms(second.corrected, 99)));
        second.release();
        nextFlushSecond = s + 1;
    }

    private void write(Histogram histogram, String tag, long s) {
        histogram.setTag(tag);
        histogram.setStartTimeStamp(s * 1000);
        histogram.setEndTimeStamp((s + 1) * 1000);
        hlog.outputIntervalHistogram(s, s + 1, histogram, 1000.0);
    }

    private static double ms(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : Histograms.millis(histogram.getValueAtPercentile(percentile));
    }

    private Second second(long intendedNanos) {
        long s = Math.max(0, Math.floorDiv(intendedNanos - startNanos, SECOND));
        if (s < nextFlushSecond) {
            s = nextFlushSecond; // its own second was already written: see the class comment
        }
        lastSecondSeen = Math.max(lastSecondSeen, s);
        Second second = open.get(s);
        if (second == null) {
            second = new Second(s);
            open.put(s, second);
        }
        return second;
    }

    private StepStats step(int step) {
        StepStats stats = steps.get(step);
        if (stats == null) {
            stats = new StepStats();
            steps.put(step, stats);
        }
        return stats;
    }

    private Histogram borrow() {
        Histogram histogram = pool.poll();
        return histogram != null ? histogram : Histograms.create();
    }

    @Override
    public void close() throws IOException {
        try {
            log.close();
        } finally {
            hlogStream.close();
        }
    }

    // ---- what was recorded

    public long startNanos() {
        return startNanos;
    }

    public long objectiveNanos() {
        return objectiveNanos;
    }

    /** The whole run: both latencies and counts. */
    public StepStats total() {
        return total;
    }

    /** Per step id, in id order. */
    public Map<Integer, StepStats> steps() {
        return steps;
    }

    /** The expected-interval estimate (µs), or null when no interval was given. */
    public Histogram estimated() {
        return expectedIntervalMicros > 0 ? estimated : null;
    }

    /** The expected interval of {@link #estimated()}, µs (0 when none). */
    public long expectedIntervalMicros() {
        return expectedIntervalMicros;
    }

    /** Actual − intended send, µs, of every sent request that ended. */
    public Histogram sendLateness() {
        return sendLateness;
    }

    /** Actual send − the moment the engine asked to send, µs: the tester's and transport's own delay. */
    public Histogram dispatchLateness() {
        return dispatchLateness;
    }

    /** Waits for a concurrency slot (open) or for the previous answer (paced catch-up), µs; only waits > 0. */
    public Histogram waits() {
        return waits;
    }

    public long scheduled() {
        return scheduled;
    }

    public long skipped() {
        return skipped;
    }

    public long serviceAboveObjective() {
        return serviceAboveObjective;
    }

    public long correctedAboveObjective() {
        return correctedAboveObjective;
    }

    /** Earliest actual send, or Long.MAX_VALUE when nothing was sent. */
    public long firstSentNanos() {
        return firstSentNanos;
    }

    /** Latest end, or Long.MIN_VALUE when nothing ended. */
    public long lastEndNanos() {
        return lastEndNanos;
    }

    /** Requests counted in a later second's interval than their own (their second was already written). */
    public long lateToInterval() {
        return lateToInterval;
    }

    /** The seconds written so far, in order. */
    public List<SecondSummary> timeline() {
        return timeline;
    }

    private final class Second {
        final long s;
        final Histogram service = borrow();
        final Histogram corrected = borrow();
        final Map<Integer, StepStats> steps = new HashMap<>(4);
        long count;
        long errors;
        int outstanding;

        Second(long s) {
            this.s = s;
        }

        StepStats step(int step) {
            StepStats stats = steps.get(step);
            if (stats == null) {
                stats = stepPool.poll();
                if (stats == null) {
                    stats = new StepStats();
                }
                steps.put(step, stats);
            }
            return stats;
        }

        void release() {
            service.reset();
            corrected.reset();
            pool.add(service);
            pool.add(corrected);
            for (StepStats stats : steps.values()) {
                stats.reset();
                stepPool.add(stats);
            }
        }
    }
}
