package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * Records one counted run: both latencies of every request into HdrHistograms (µs, 1 µs to 1 h,
 * 3 digits; see {@link Histograms}) for the run and per step id, counts above the objective and send
 * lateness; and hands each request to the run's timeline ({@link IntervalLog}, {@value #HLOG_FILE_NAME}),
 * to the per-request log ({@link RequestLog}, {@value RequestLog#FILE_NAME}) and to the live feed
 * ({@link LiveStats}, when there is one). Memory stays flat.
 *
 * <p>Protocol: {@link #expect} each request when it is created (before it can be sent), then exactly one
 * of {@link #completed} or {@link #dropped}; {@link #advance} after handling an event, {@link #finish} at
 * the end. Every tester creates its requests at or after their intended time (or, paced, while the
 * previous request of the connection is in flight), so a request normally lands in a second of the
 * timeline still open; one that comes more than a second later is counted in the earliest open second
 * and in {@link #lateToInterval()}. Totals are never affected. Used by one thread (its files may be written by
 * another, see the constructor).
 */
public final class RunRecorder implements AutoCloseable, Recording {

    /** The interval log's file name in a run's folder. */
    public static final String HLOG_FILE_NAME = "latency.hlog";

    private final long startNanos;
    private final boolean closedLoop;
    private final long objectiveNanos;
    private final long expectedIntervalMicros;
    private final RequestLog.Writer log;
    private final IntervalLog intervals;

    private final StepStats total = new StepStats();
    private final Map<Integer, StepStats> steps = new TreeMap<>();
    private final Histogram estimated = Histograms.create();
    private final Histogram sendLateness = Histograms.create();
    private final Histogram dispatchLateness = Histograms.create();
    private long scheduled;
    private long skipped;
    private long serviceAboveObjective;
    private long correctedAboveObjective;
    private long lastSentNanos = Long.MIN_VALUE;
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
        this(runDir, startNanos, objectiveNanos, expectedIntervalNanos, stepNames, closedLoop, Runnable::run);
    }

    /**
     * A recorder whose files are written by {@code writer}: the interval log's finished seconds and the
     * request log's full buffers are handed to it, so the recording thread only fills them. The writer must
     * run its tasks one at a time, in order (one thread; {@code Runnable::run} writes on the recording thread
     * itself, as the other constructor does). {@link #close()} and {@link #finish} wait until it has written
     * everything; the files are the same either way.
     */
    public RunRecorder(Path runDir, long startNanos, long objectiveNanos, long expectedIntervalNanos,
                       IntFunction<String> stepNames, boolean closedLoop, Executor writer) throws IOException {
        this(created(runDir, startNanos, writer),
                new IntervalLog(runDir.resolve(HLOG_FILE_NAME), startNanos, stepNames, writer),
                startNanos, objectiveNanos, expectedIntervalNanos, closedLoop);
    }

    private RunRecorder(RequestLog.Writer log, IntervalLog intervals, long startNanos, long objectiveNanos,
                        long expectedIntervalNanos, boolean closedLoop) {
        this.closedLoop = closedLoop;
        this.startNanos = startNanos;
        this.objectiveNanos = objectiveNanos;
        this.expectedIntervalMicros = expectedIntervalNanos > 0 ? Histograms.micros(expectedIntervalNanos) : 0;
        this.log = log;
        this.intervals = intervals;
    }

    private static RequestLog.Writer created(Path runDir, long startNanos, Executor writer) throws IOException {
        Files.createDirectories(runDir);
        return RequestLog.create(runDir.resolve(RequestLog.FILE_NAME), startNanos, writer);
    }

    /**
     * A recorder that does all the work of one but writes nothing (its request log and interval log go
     * nowhere): a warm-up records into one and throws it away, so the recording path is compiled and warm
     * when the counted run starts. Arguments as for the constructor.
     */
    public static RunRecorder discarding(long startNanos, long objectiveNanos, long expectedIntervalNanos,
                                         IntFunction<String> stepNames, boolean closedLoop) {
        return new RunRecorder(RequestLog.discarding(startNanos),
                new IntervalLog(OutputStream.nullOutputStream(), startNanos, stepNames, Runnable::run), startNanos,
                objectiveNanos,
                expectedIntervalNanos, closedLoop);
    }

    /** Also feeds live (read by another thread, e.g. a progress line); null: none. */
    public void live(LiveStats stats) {
        this.live = stats;
    }

    /** A request intended at intendedNanos now exists (it counts as scheduled). */
    public void expect(long intendedNanos) {
        scheduled++;
        intervals.expect(intendedNanos);
    }

    /**
     * A request announced with {@link #expect} will not exist after all: a user stop withdrew it before its
     * intended time (it is no longer scheduled).
     */
    public void withdraw(long intendedNanos) {
        scheduled--;
        intervals.withdraw(intendedNanos);
    }

    /** Iterations a paced tester did not send (on_late: skip); they count as scheduled and skipped. */
    public void skipped(long count) {
        scheduled += count;
        skipped += count;
    }

    /**
     * A request ended (OK or not; not cancelled): it counts as sent, and as completed (OK) or as an error.
     *
     * @param releaseNanos when the engine asked the transport to send it (dispatch lateness = sent − release)
     * @param sentNanos    actual send, or -1 if it was never sent (then no latency is recorded)
     */
    public void completed(long intendedNanos, long releaseNanos, long sentNanos, long endNanos,
                          int connection, int step, int status, Outcome outcome) {
        completed(intendedNanos, releaseNanos, sentNanos, endNanos, connection, step, status, outcome, 0);
    }

    /** {@link #completed(long, long, long, long, int, int, int, Outcome)} of an answer served by replica {@code servedBy}. */
    public void completed(long intendedNanos, long releaseNanos, long sentNanos, long endNanos,
                          int connection, int step, int status, Outcome outcome, int servedBy) {
        long correctedStart = closedLoop && sentNanos >= 0 ? sentNanos : intendedNanos;
        StepStats stepStats = step(step);
        boolean error = outcome != Outcome.OK;
        total.sent++;
        stepStats.sent++;
        if (error) {
            total.errors++;
            stepStats.errors++;
            total.errorKinds.count(outcome, status);
            stepStats.errorKinds.count(outcome, status);
        } else {
            total.completed++;
            stepStats.completed++;
        }
        long serviceMicros = 0;
        long correctedMicros = 0;
        if (sentNanos >= 0) {
            lastSentNanos = Math.max(lastSentNanos, sentNanos);
            long serviceNanos = endNanos - sentNanos;
            long correctedNanos = endNanos - correctedStart;
            serviceMicros = Histograms.micros(serviceNanos);
            correctedMicros = Histograms.micros(correctedNanos);
            total.record(serviceMicros, correctedMicros);
            stepStats.record(serviceMicros, correctedMicros);
            if (expectedIntervalMicros > 0) {
                estimated.recordValueWithExpectedInterval(serviceMicros, expectedIntervalMicros);
            }
            long sendLatenessMicros = Histograms.micros(sentNanos - correctedStart);
            if (live != null) {
                live.record(serviceMicros, correctedMicros, sendLatenessMicros);
            }
            if (serviceNanos > objectiveNanos) {
                serviceAboveObjective++;
            }
            if (correctedNanos > objectiveNanos) {
                correctedAboveObjective++;
            }
            sendLateness.recordValue(sendLatenessMicros);
            dispatchLateness.recordValue(Histograms.micros(sentNanos - releaseNanos));
        }
        intervals.completed(intendedNanos, step, error, sentNanos >= 0, serviceMicros, correctedMicros);
        log.append(correctedStart, sentNanos, endNanos, connection, step, status, outcome, servedBy);
        if (live != null) {
            live.countEnded(step, outcome);
        }
    }

    /**
     * A request was dropped (never answered): cancelled at the end of the grace after it was committed to
     * the socket (sentNanos >= 0, also counted in {@link StepStats#droppedAfterSend()}) or before (-1). It
     * does not count as sent.
     */
    public void dropped(long intendedNanos, long sentNanos, long endNanos, int connection, int step) {
        intervals.dropped(intendedNanos, step);
        total.dropped++;
        step(step).dropped++;
        if (sentNanos >= 0) {
            total.droppedAfterSend++;
            step(step).droppedAfterSend++;
        }
        log.append(closedLoop && sentNanos >= 0 ? sentNanos : intendedNanos, sentNanos, endNanos, connection, step,
                0, Outcome.CANCELLED);
        if (live != null) {
            live.countDropped(step);
        }
    }

    /** Writes out every second of the timeline that ended at least a second before nowNanos and is complete. */
    public void advance(long nowNanos) {
        intervals.advance(nowNanos);
    }

    /**
     * Ends the recording: writes every remaining second up to the end of the run's duration and closes
     * the files.
     */
    public void finish(long durationNanos) throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        intervals.finish(durationNanos);
        close();
    }

    private StepStats step(int step) {
        StepStats stats = steps.get(step);
        if (stats == null) {
            stats = new StepStats();
            steps.put(step, stats);
        }
        return stats;
    }

    /** Closes the files, once the writer has written everything handed to it. */
    @Override
    public void close() throws IOException {
        intervals.close();
        try {
            log.close(); // waits for the writer: its tasks run in order, the interval log's close among them
            if (intervals.writeFailure() instanceof UncheckedIOException failed) {
                throw failed.getCause();
            }
            if (intervals.writeFailure() != null) {
                throw new IOException("cannot write the interval log", intervals.writeFailure());
            }
        } catch (IOException e) {
            // a file that could not be written whole (a full disk): neither is left under its name
            intervals.deleteFile();
            log.deleteFile();
            throw e;
        }
    }

    // ---- what was recorded

    public long startNanos() {
        return startNanos;
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

    /** Requests counted in a later second's interval than their own (their second was already written). */
    public long lateToInterval() {
        return intervals.lateToInterval();
    }

    @Override
    public long lastSentNanos() {
        return lastSentNanos;
    }

    /** The seconds written so far, in order. */
    public List<SecondSummary> timeline() {
        return intervals.timeline();
    }
}
