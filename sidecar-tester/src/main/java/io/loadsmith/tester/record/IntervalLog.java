package io.loadsmith.tester.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * The run's timeline: per-second histograms of both latencies (and per step, when the run has more than
 * one step id), keyed by intended second on the run's own timeline, written to an HdrHistogram interval
 * log as soon as a second can no longer change, and summed up in {@link #timeline()}. Only the seconds
 * with requests still in flight are held; their histograms are reused.
 *
 * <p>A second is written once it ended at least one second ago and nothing intended in it is in flight. A
 * request that comes after its second was written (a scheduler more than a second behind) is counted in
 * the earliest open second and in {@link #lateToInterval()}. Used by one thread; a second's histograms are
 * encoded and written by the writer it is given, then come back reset for later seconds.
 */
final class IntervalLog implements AutoCloseable {

    private static final long SECOND = 1_000_000_000L;
    private static final int POOLED = 64;

    private final long startNanos;
    private final IntFunction<String> stepNames;
    private final PrintStream stream;
    /** The file, and what its writes failed with (a PrintStream keeps only a flag); null for a stream. */
    private final Path file;
    private final Remembering sink;
    private final HistogramLogWriter hlog;
    /** The seconds not yet written, from nextFlushSecond on (null: nothing in it yet). */
    private final List<Second> open = new ArrayList<>();
    private final Executor writer;
    /** Histograms back from the writer, reset, for the next seconds (the writer gives, the recorder takes). */
    private final ArrayBlockingQueue<Histogram> pool = new ArrayBlockingQueue<>(POOLED);
    private final ArrayBlockingQueue<StepStats> stepPool = new ArrayBlockingQueue<>(POOLED);
    private volatile RuntimeException writeFailure;
    private final List<SecondSummary> timeline = new ArrayList<>();
    private long nextFlushSecond;
    private long lastSecondSeen = -1;
    private long lateToInterval;
    private int firstStep = Integer.MIN_VALUE;
    private boolean manySteps;

    IntervalLog(Path file, long startNanos, IntFunction<String> stepNames, Executor writer) throws IOException {
        this(new Remembering(Files.newOutputStream(file)), file, startNanos, stepNames, writer);
    }

    /**
     * A log written to {@code out} (closed with the log) by {@code writer}: tasks that run one at a time, in
     * order; {@code stepNames} is called there.
     */
    IntervalLog(OutputStream out, long startNanos, IntFunction<String> stepNames, Executor writer) {
        this(out, null, startNanos, stepNames, writer);
    }

    private IntervalLog(OutputStream out, Path file, long startNanos, IntFunction<String> stepNames,
                        Executor writer) {
        this.file = file;
        this.sink = out instanceof Remembering remembering ? remembering : null;
        this.writer = writer;
        this.startNanos = startNanos;
        this.stepNames = stepNames;
        this.stream = new PrintStream(new BufferedOutputStream(out), false, StandardCharsets.UTF_8);
        this.hlog = logWriter(stream);
    }

    /** A writer of the interval log's format on stream, its header written. */
    static HistogramLogWriter logWriter(PrintStream stream) {
        HistogramLogWriter hlog = new HistogramLogWriter(stream);
        hlog.outputComment("loadsmith interval log: one interval per second of intended send time, "
                + "timestamps in seconds from the run's start; values in microseconds (max column in ms)");
        hlog.outputComment("tags: service (end - actual send), corrected (end - intended send), "
                + "service.<step> and corrected.<step> per journey step");
        hlog.outputLogFormatVersion();
        hlog.outputLegend();
        return hlog;
    }

    /** A request intended at intendedNanos exists: its second stays open until it ends. */
    void expect(long intendedNanos) {
        if (Math.floorDiv(intendedNanos - startNanos, SECOND) < nextFlushSecond) {
            lateToInterval++;
        }
        second(intendedNanos).outstanding++;
    }

    /** A request announced with {@link #expect} will not exist after all. */
    void withdraw(long intendedNanos) {
        second(intendedNanos).outstanding--;
    }

    /** A request ended; its latencies (µs) are recorded when it was sent. */
    void completed(long intendedNanos, int step, boolean error, boolean sent, long serviceMicros,
                   long correctedMicros) {
        Second second = second(intendedNanos);
        second.outstanding--;
        second.count++;
        if (error) {
            second.errors++;
        }
        if (sent) {
            second.service.recordValue(serviceMicros);
            second.corrected.recordValue(correctedMicros);
            second.step(step).record(serviceMicros, correctedMicros);
        }
        noteStep(step);
    }

    /** A request was dropped (never answered). */
    void dropped(long intendedNanos, int step) {
        second(intendedNanos).outstanding--;
        noteStep(step);
    }

    private void noteStep(int step) {
        if (firstStep == Integer.MIN_VALUE) {
            firstStep = step;
        } else if (step != firstStep) {
            manySteps = true;
        }
    }

    /** Writes out every second that ended at least a second before nowNanos and has nothing in flight. */
    void advance(long nowNanos) {
        while (nextFlushSecond <= lastSecondSeen && startNanos + (nextFlushSecond + 2) * SECOND <= nowNanos) {
            Second second = open.isEmpty() ? null : open.get(0);
            if (second != null && second.outstanding > 0) {
                return;
            }
            flush();
        }
    }

    /** Writes every remaining second up to the end of the run's duration. */
    void finish(long durationNanos) {
        long lastSecond = Math.max(lastSecondSeen, (durationNanos + SECOND - 1) / SECOND - 1);
        while (nextFlushSecond <= lastSecond) {
            flush();
        }
    }

    /** Sums the next second up for the timeline and hands its histograms to the writer. */
    private void flush() {
        if (writeFailure != null) {
            throw writeFailure;
        }
        long s = nextFlushSecond;
        Second second = open.isEmpty() ? null : open.remove(0);
        if (second == null) {
            second = new Second();
        }
        timeline.add(new SecondSummary(s, second.count, second.errors,
                ms(second.service, 50), ms(second.service, 99), ms(second.corrected, 50), ms(second.corrected, 99)));
        Second written = second;
        boolean steps = manySteps;
        writer.execute(() -> write(written, s, steps));
        nextFlushSecond = s + 1;
    }

    /** On the writer: second s's histograms to the log, then back to the pools. */
    private void write(Second second, long s, boolean steps) {
        try {
            write(second.service, "service", s);
            write(second.corrected, "corrected", s);
            if (steps) {
                for (Map.Entry<Integer, StepStats> entry : second.steps.entrySet()) {
                    String name = stepNames.apply(entry.getKey());
                    write(entry.getValue().service, "service." + name, s);
                    write(entry.getValue().corrected, "corrected." + name, s);
                }
            }
            noteFailure();
        } catch (RuntimeException e) {
            if (writeFailure == null) {
                writeFailure = e;
            }
        } finally {
            second.release();
        }
    }

    /** On the writer: a write to the file that failed becomes the log's failure, naming the file. */
    private void noteFailure() {
        if (sink != null && writeFailure == null && stream.checkError() && sink.failure != null) {
            writeFailure = new UncheckedIOException(RequestLog.named(file, sink.failure));
        }
    }

    private void write(Histogram histogram, String tag, long s) {
        write(hlog, histogram, tag, s);
    }

    /** Writes second s's histogram with its tag. */
    static void write(HistogramLogWriter hlog, Histogram histogram, String tag, long s) {
        histogram.setTag(tag);
        histogram.setStartTimeStamp(s * 1000);
        histogram.setEndTimeStamp((s + 1) * 1000);
        hlog.outputIntervalHistogram(s, s + 1, histogram, 1000.0);
    }

    static double ms(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : Histograms.millis(histogram.getValueAtPercentile(percentile));
    }

    private Second second(long intendedNanos) {
        long s = Math.max(nextFlushSecond, Math.floorDiv(intendedNanos - startNanos, SECOND));
        lastSecondSeen = Math.max(lastSecondSeen, s);
        int index = Math.toIntExact(s - nextFlushSecond);
        while (open.size() <= index) {
            open.add(null);
        }
        Second second = open.get(index);
        if (second == null) {
            second = new Second();
            open.set(index, second);
        }
        return second;
    }

    /** Requests counted in a later second's interval than their own (their second was already written). */
    long lateToInterval() {
        return lateToInterval;
    }

    /** The seconds written so far, in order. */
    List<SecondSummary> timeline() {
        return timeline;
    }

    /** Hands the closing of the file to the writer (the recorder waits for the writer). */
    @Override
    public void close() {
        writer.execute(() -> {
            stream.close();
            noteFailure();
        });
    }

    /** Deletes the file (after {@link #close()}, once the writer is done: a run whose files failed). */
    void deleteFile() throws IOException {
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    /** An output stream that remembers the first failure of the stream under it, then rethrows it. */
    static final class Remembering extends FilterOutputStream {
        volatile IOException failure;

        Remembering(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw remember(e);
            }
        }

        private IOException remember(IOException e) {
            if (failure == null) {
                failure = e;
            }
            return e;
        }
    }

    /** What the writer failed with, or null. */
    RuntimeException writeFailure() {
        return writeFailure;
    }

    private Histogram borrow() {
        Histogram histogram = pool.poll();
        return histogram != null ? histogram : Histograms.create();
    }

    private final class Second {
        final Histogram service = borrow();
        final Histogram corrected = borrow();
        final Map<Integer, StepStats> steps = new HashMap<>(4);
        long count;
        long errors;
        int outstanding;

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
            pool.offer(service);
            pool.offer(corrected);
            for (StepStats stats : steps.values()) {
                stats.reset();
                stepPool.offer(stats);
            }
        }
    }
}
