package io.loadsmith.tester.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The one set of files and figures of a run whose lanes each recorded on their own ({@link RunRecorder}
 * per lane, each into a folder of its own), made after every lane finished:
 *
 * <ul>
 *   <li>counts (scheduled, skipped, late to their interval) and counts above the objective summed; every histogram (run, steps,
 *       estimate, send and dispatch lateness) added with HdrHistogram's {@code add}, which is lossless;</li>
 *   <li>{@value RunRecorder#HLOG_FILE_NAME}: the lanes' intervals added second by second and tag by tag
 *       (a second's tags as the lanes wrote them: {@code service}, {@code corrected}, then the step tags;
 *       a lane writes step tags once it has seen a second step id, so in the rare second where one lane
 *       had and another had not, the step tags hold the first lane's requests only, while
 *       {@code service} and {@code corrected} always hold every lane's);
 *       the timeline's counts and errors summed, its percentiles read from the added histograms;</li>
 *   <li>{@value RequestLog#FILE_NAME}: a k-way merge of the lanes' logs by the moment each request ended
 *       (a record without an end keeps its place after the one before it in its lane), so the file stays in
 *       the order requests ended, as a one-lane run's is.</li>
 * </ul>
 *
 * Runs on one thread, once; the lanes' recorders must be finished and the caller must have seen their
 * writes (e.g. through a lock their threads released).
 *
 * <p>The same two file merges serve the shards of a load run in separate processes ({@link
 * #mergeRequestLogs(List, long[], Path, long)}, {@link #mergeIntervals(List, long[], long, Path, SecondSink)}):
 * there each folder's times are first moved onto the merged folder's timeline.
 */
public final class LaneMerge {

    private LaneMerge() {
    }

    /**
     * Writes runDir's {@value RequestLog#FILE_NAME} and {@value RunRecorder#HLOG_FILE_NAME} from the lanes'
     * files in laneDirs (same order as lanes) and returns the run's figures. The lanes' files are left as
     * they are.
     */
    public static Recording merge(List<RunRecorder> lanes, List<Path> laneDirs, Path runDir) throws IOException {
        Merged merged = new Merged(lanes.get(0));
        for (RunRecorder lane : lanes) {
            merged.add(lane);
        }
        Files.createDirectories(runDir);
        try {
            mergeRequestLogs(laneDirs, new long[laneDirs.size()], runDir.resolve(RequestLog.FILE_NAME),
                    merged.startNanos);
            long seconds = 0;
            for (RunRecorder lane : lanes) {
                seconds = Math.max(seconds, lane.timeline().size());
            }
            mergeIntervals(laneDirs, new long[laneDirs.size()], seconds, runDir.resolve(RunRecorder.HLOG_FILE_NAME),
                    (s, sums) -> merged.timeline.add(second(s, lanes, sums.get("service"), sums.get("corrected"))));
        } catch (IOException | UncheckedIOException e) {
            // a file that could not be written whole (a full disk): neither is left under its name
            Files.deleteIfExists(runDir.resolve(RequestLog.FILE_NAME));
            Files.deleteIfExists(runDir.resolve(RunRecorder.HLOG_FILE_NAME));
            throw e;
        }
        return merged;
    }

    /** Deletes a lane's folder and the files a {@link RunRecorder} writes in it, whatever is left of them. */
    public static void delete(Path laneDir) throws IOException {
        Files.deleteIfExists(laneDir.resolve(RequestLog.FILE_NAME));
        Files.deleteIfExists(laneDir.resolve(RunRecorder.HLOG_FILE_NAME));
        Files.deleteIfExists(laneDir);
    }

    // ---- requests.bin

    private static final class LogHead {
        final RequestLog.Reader reader;
        final int lane;
        final long shiftNanos;
        RequestRecord record;
        long key;

        LogHead(RequestLog.Reader reader, int lane, long shiftNanos) {
            this.reader = reader;
            this.lane = lane;
            this.shiftNanos = shiftNanos;
        }

        boolean advance() {
            if (!reader.hasNext()) {
                return false;
            }
            record = shifted(reader.next(), shiftNanos);
            key = Math.max(key, record.endNanos());
            return true;
        }
    }

    /** The record with its times (those it has: -1 stays -1) moved by shiftNanos. */
    static RequestRecord shifted(RequestRecord r, long shiftNanos) {
        if (shiftNanos == 0) {
            return r;
        }
        return new RequestRecord(r.intendedNanos() + shiftNanos, r.sentNanos() < 0 ? -1 : r.sentNanos() + shiftNanos,
                r.endNanos() < 0 ? -1 : r.endNanos() + shiftNanos, r.connection(), r.step(), r.status(), r.outcome());
    }

    /**
     * Writes target ({@value RequestLog#FILE_NAME}, run start startNanos) from the logs of dirs, each
     * record's times moved by its folder's shift (ns), merged in the order requests ended.
     */
    public static void mergeRequestLogs(List<Path> dirs, long[] shiftNanos, Path target, long startNanos)
            throws IOException {
        List<LogHead> heads = new ArrayList<>();
        PriorityQueue<LogHead> queue = new PriorityQueue<>((a, b) -> a.key != b.key
                ? Long.compare(a.key, b.key) : Integer.compare(a.lane, b.lane));
        try (RequestLog.Writer out = RequestLog.create(target, startNanos)) {
            for (int i = 0; i < dirs.size(); i++) {
                LogHead head = new LogHead(RequestLog.read(dirs.get(i).resolve(RequestLog.FILE_NAME)), i,
                        shiftNanos[i]);
                heads.add(head);
                if (head.advance()) {
                    queue.add(head);
                }
            }
            LogHead head;
            while ((head = queue.poll()) != null) {
                out.append(head.record);
                if (head.advance()) {
                    queue.add(head);
                }
            }
        } finally {
            for (LogHead h : heads) {
                h.reader.close();
            }
        }
    }

    // ---- latency.hlog and the timeline

    /** One lane's interval log, read a second at a time, its seconds moved by shiftSeconds. */
    private static final class IntervalHead {
        final HistogramLogReader reader;
        final long shiftSeconds;
        Histogram next;

        IntervalHead(Path file, long shiftSeconds) throws IOException {
            reader = new HistogramLogReader(file.toFile());
            this.shiftSeconds = shiftSeconds;
            next = (Histogram) reader.nextIntervalHistogram();
        }

        /** Adds every interval of second s to sums, by tag, in the order read. */
        void addSecond(long s, Map<String, Histogram> sums) {
            while (next != null && next.getStartTimeStamp() / 1000 + shiftSeconds == s) {
                sums.computeIfAbsent(next.getTag(), tag -> Histograms.create()).add(next);
                next = (Histogram) reader.nextIntervalHistogram();
            }
        }

        long nextSecond() {
            return next == null ? Long.MAX_VALUE : next.getStartTimeStamp() / 1000 + shiftSeconds;
        }
    }

    /** Takes each second of a merged interval log once it is written. */
    @FunctionalInterface
    public interface SecondSink {
        /**
         * @param s    the second, from the merged timeline's start
         * @param sums its histograms (µs) by tag, {@code service} and {@code corrected} first; reused after the call
         */
        void second(long s, Map<String, Histogram> sums) throws IOException;
    }

    /**
     * Writes target ({@value RunRecorder#HLOG_FILE_NAME}) from the interval logs of dirs, second s of dir i
     * becoming second s + shiftSeconds[i]: for each second of [0, seconds) the intervals of every folder added
     * tag by tag (HdrHistogram {@code add}, lossless), handed to sink once written.
     *
     * @throws IOException when a log has a second at or past {@code seconds}, or the file cannot be written
     */
    public static void mergeIntervals(List<Path> dirs, long[] shiftSeconds, long seconds, Path target, SecondSink sink)
            throws IOException {
        List<IntervalHead> heads = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            heads.add(new IntervalHead(dirs.get(i).resolve(RunRecorder.HLOG_FILE_NAME), shiftSeconds[i]));
        }
        IntervalLog.Remembering written = new IntervalLog.Remembering(Files.newOutputStream(target));
        try (PrintStream stream = new PrintStream(new BufferedOutputStream(written), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter hlog = IntervalLog.logWriter(stream);
            for (long s = 0; s < seconds; s++) {
                Map<String, Histogram> sums = new LinkedHashMap<>();
                sums.put("service", Histograms.create());
                sums.put("corrected", Histograms.create());
                for (IntervalHead head : heads) {
                    head.addSecond(s, sums);
                }
                for (Map.Entry<String, Histogram> entry : sums.entrySet()) {
                    IntervalLog.write(hlog, entry.getValue(), entry.getKey(), s);
                }
                sink.second(s, sums);
            }
            for (IntervalHead head : heads) {
                if (head.nextSecond() != Long.MAX_VALUE) {
                    throw new IOException("an interval log has a second past its run's timeline: "
                            + head.nextSecond());
                }
            }
            if (stream.checkError()) {
                throw written.failure != null ? RequestLog.named(target, written.failure)
                        : new IOException("cannot write " + target);
            }
        }
    }

    private static SecondSummary second(long s, List<RunRecorder> lanes, Histogram service, Histogram corrected) {
        long count = 0;
        long errors = 0;
        for (RunRecorder lane : lanes) {
            if (s < lane.timeline().size()) {
                SecondSummary own = lane.timeline().get((int) s);
                count += own.count();
                errors += own.errors();
            }
        }
        return new SecondSummary(s, count, errors, IntervalLog.ms(service, 50), IntervalLog.ms(service, 99),
                IntervalLog.ms(corrected, 50), IntervalLog.ms(corrected, 99));
    }

    // ---- the figures

    private static final class Merged implements Recording {
        final long startNanos;
        final long expectedIntervalMicros;
        final StepStats total = new StepStats();
        final Map<Integer, StepStats> steps = new TreeMap<>();
        final Histogram estimated = Histograms.create();
        final Histogram sendLateness = Histograms.create();
        final Histogram dispatchLateness = Histograms.create();
        final List<SecondSummary> timeline = new ArrayList<>();
        long scheduled;
        long skipped;
        long serviceAboveObjective;
        long correctedAboveObjective;
        long lateToInterval;
        long lastSentNanos = Long.MIN_VALUE;

        Merged(RunRecorder first) {
            startNanos = first.startNanos();
            expectedIntervalMicros = first.expectedIntervalMicros();
        }

        void add(RunRecorder lane) {
            if (lane.startNanos() != startNanos) {
                throw new IllegalArgumentException("lanes of one run share its start (" + startNanos + " ns, got "
                        + lane.startNanos() + " ns)");
            }
            total.add(lane.total());
            for (Map.Entry<Integer, StepStats> step : lane.steps().entrySet()) {
                steps.computeIfAbsent(step.getKey(), k -> new StepStats()).add(step.getValue());
            }
            if (lane.estimated() != null) {
                estimated.add(lane.estimated());
            }
            sendLateness.add(lane.sendLateness());
            dispatchLateness.add(lane.dispatchLateness());
            scheduled += lane.scheduled();
            skipped += lane.skipped();
            serviceAboveObjective += lane.serviceAboveObjective();
            correctedAboveObjective += lane.correctedAboveObjective();
            lateToInterval += lane.lateToInterval();
            lastSentNanos = Math.max(lastSentNanos, lane.lastSentNanos());
        }

        @Override public long startNanos() { return startNanos; }
        @Override public StepStats total() { return total; }
        @Override public Map<Integer, StepStats> steps() { return steps; }
        @Override public Histogram estimated() { return expectedIntervalMicros > 0 ? estimated : null; }
        @Override public long expectedIntervalMicros() { return expectedIntervalMicros; }
        @Override public Histogram sendLateness() { return sendLateness; }
        @Override public Histogram dispatchLateness() { return dispatchLateness; }
        @Override public long scheduled() { return scheduled; }
        @Override public long skipped() { return skipped; }
        @Override public long serviceAboveObjective() { return serviceAboveObjective; }
        @Override public long correctedAboveObjective() { return correctedAboveObjective; }
        @Override public long lateToInterval() { return lateToInterval; }
        @Override public long lastSentNanos() { return lastSentNanos; }
        @Override public List<SecondSummary> timeline() { return timeline; }
    }
}
