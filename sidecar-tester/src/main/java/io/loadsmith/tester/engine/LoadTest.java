package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.record.SecondSummary;
import io.loadsmith.tester.record.StepStats;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.transport.Transport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The engine's entry point: runs one tester ({@link TesterSpec}) on a {@link Scheduler} against a
 * {@link Transport}, taking what to send from a {@link RequestSource}, and writes the run's files into
 * {@code runDir}: {@value RequestLog#FILE_NAME} and {@value RunRecorder#HLOG_FILE_NAME}.
 *
 * <pre>{@code
 * try (SystemScheduler scheduler = SystemScheduler.start(); Transport http = ...) {
 *     RunResult result = LoadTest.run(TesterSpec.open(500).duration(30_000_000_000L), scheduler, http,
 *             RequestSource.get(URI.create("http://127.0.0.1:8080/")), Path.of("results/run-1/open"));
 * }
 * }</pre>
 *
 * With a {@link VirtualScheduler} the call drives the virtual clock itself until the run ends; with a real
 * scheduler it blocks the caller (not the scheduler) until the run ends. Phases: an optional warm-up (not
 * counted, not logged), then the counted run, which starts {@link TesterSpec#startDelayNanos()} after the
 * warm-up has drained and ends when every request has ended, been cancelled after the grace, or dropped.
 */
public final class LoadTest {

    private LoadTest() {
    }

    /** {@link #run(TesterSpec, Scheduler, Transport, RequestSource, Path, RunListener)} without a listener. */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir) throws IOException {
        return run(spec, scheduler, transport, source, runDir, RunListener.NONE);
    }

    /** {@link #run(TesterSpec, Scheduler, Transport, RequestSource, Path, RunListener, RunControl)}, unstoppable. */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir, RunListener listener) throws IOException {
        return run(spec, scheduler, transport, source, runDir, listener, new RunControl());
    }

    /**
     * Runs the tester; see the class comment. {@code control.stop()} (from any thread) ends the run early
     * with everything measured so far; see {@link RunControl}.
     */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir, RunListener listener, RunControl control) throws IOException {
        Run run = new Run(spec, scheduler, transport, source, runDir, listener, control.live());
        run.future.whenComplete((result, failure) -> control.markFinished());
        control.attach(scheduler, run::userStop);
        scheduler.at(scheduler.nanoTime(), run::begin);
        if (scheduler instanceof VirtualScheduler virtual) {
            while (!run.future.isDone() && virtual.runNext()) {
                // drive virtual time
            }
            if (!run.future.isDone()) {
                throw new IllegalStateException("the virtual scheduler ran out of events before the run ended");
            }
        }
        try {
            return run.future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static final class Run {
        final TesterSpec spec;
        final Scheduler scheduler;
        final Transport transport;
        final RequestSource source;
        final Path runDir;
        final RunListener listener;
        final io.loadsmith.tester.record.LiveStats live;
        final CompletableFuture<RunResult> future = new CompletableFuture<>();
        RunRecorder recorder;
        long cpuStartNanos;
        Phase current;
        boolean stopRequested;

        Run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source, Path runDir,
            RunListener listener, io.loadsmith.tester.record.LiveStats live) {
            this.live = live;
            this.spec = spec;
            this.scheduler = scheduler;
            this.transport = transport;
            this.source = source;
            this.runDir = runDir;
            this.listener = listener;
        }

        void begin() {
            guard(() -> {
                if (spec.warmupRequests() > 0 || spec.warmupNanos() > 0) {
                    long start = scheduler.nanoTime() + spec.startDelayNanos();
                    long duration = spec.warmupNanos() > 0 ? spec.warmupNanos() : Long.MAX_VALUE;
                    long limit = spec.warmupRequests() > 0 ? spec.warmupRequests() : Long.MAX_VALUE;
                    // the warm-up draws its arrivals from its own stream: the counted schedule stays the same
                    ArrivalSchedule schedule = schedule(spec.seed() ^ 0x5761726d55705f31L, duration);
                    started(new Phase(scheduler, transport, source, spec, null, start, duration, limit, schedule,
                            done -> guard(this::beginCounted), this::fail));
                } else {
                    beginCounted();
                }
            });
        }

        void beginCounted() throws IOException {
            long start = scheduler.nanoTime() + spec.startDelayNanos();
            listener.countedStart(start);
            long interval = switch (spec.model()) {
                case OPEN -> 0;
                case CLOSED -> spec.expectedIntervalNanos();
                case PACED -> spec.paceNanos();
            };
            recorder = new RunRecorder(runDir, start, spec.objectiveNanos(), interval, source::stepName,
                    spec.model() == TesterSpec.Model.CLOSED);
            recorder.live(live);
            cpuStartNanos = processCpuNanos();
            started(new Phase(scheduler, transport, source, spec, recorder, start, spec.durationNanos(),
                    Long.MAX_VALUE, schedule(spec.seed(), spec.durationNanos()), done -> guard(() -> finish(done)),
                    this::fail));
        }

        void started(Phase phase) {
            current = phase;
            phase.start();
            if (stopRequested) {
                phase.userStop();
            }
        }

        /** On the scheduler's thread: the user asked to stop (see {@link RunControl}). */
        void userStop() {
            if (future.isDone()) {
                return;
            }
            stopRequested = true;
            if (current != null) {
                guard(current::userStop);
            }
        }

        ArrivalSchedule schedule(long seed, long durationNanos) {
            if (spec.model() != TesterSpec.Model.OPEN) {
                return null;
            }
            boolean poisson = spec.arrivals() == TesterSpec.Arrivals.POISSON;
            if (!spec.stages().isEmpty()) {
                return ArrivalSchedule.stages(spec.startRatePerSecond(), spec.stages(), poisson, seed);
            }
            return poisson ? ArrivalSchedule.poisson(spec.ratePerSecond(), durationNanos, seed)
                    : ArrivalSchedule.constant(spec.ratePerSecond(), durationNanos);
        }

        void finish(Phase phase) throws IOException {
            long cpuNanos = processCpuNanos() - cpuStartNanos;
            long end = scheduler.nanoTime();
            recorder.finish(phase.userStopped() ? phase.endNanos() - phase.startNanos() : spec.durationNanos());
            future.complete(Results.build(spec, recorder, phase, end, cpuNanos, runDir));
        }

        interface Step {
            void run() throws IOException;
        }

        void guard(Step step) {
            try {
                step.run();
            } catch (IOException e) {
                closeQuietly();
                future.completeExceptionally(new UncheckedIOException(e));
            } catch (RuntimeException | Error e) {
                closeQuietly();
                future.completeExceptionally(e);
            }
        }

        void fail(Throwable failure) {
            closeQuietly();
            future.completeExceptionally(failure);
        }

        void closeQuietly() {
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException ignored) {
                    // the first failure is the one reported
                }
            }
        }
    }

    /** Process CPU time in nanoseconds (all threads), or -1 when the JVM cannot say. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** Builds the {@link RunResult} of a finished run. */
    static final class Results {
        private Results() {
        }

        static RunResult build(TesterSpec spec, RunRecorder recorder, Phase phase, long endNanos, long cpuNanos,
                               Path runDir) throws IOException {
            StepStats total = recorder.total();
            long sent = total.sent();
            boolean interrupted = phase.userStopped();
            long durationNanos = interrupted ? phase.endNanos() - phase.startNanos() : spec.durationNanos();
            List<String> warnings = new ArrayList<>();
            if (interrupted) {
                warnings.add(String.format(java.util.Locale.ROOT, "stopped early by the user after %.1f s of %.1f s;"
                        + " the counts and latencies cover what was scheduled before the stop",
                        durationNanos / 1e9, spec.durationNanos() / 1e9));
            }
            RunResult.Latency estimated = null;
            RunResult.Estimate estimate = null;
            if (spec.model() != TesterSpec.Model.OPEN) {
                Histogram estimatedHistogram = recorder.estimated();
                String intervalSource = spec.model() == TesterSpec.Model.PACED ? "pace" : "configured";
                long intervalMicros = recorder.expectedIntervalMicros();
                if (estimatedHistogram == null) {
                    // closed loop without a configured interval: the measured mean interval of one connection
                    intervalSource = "measured";
                    intervalMicros = sent == 0 ? 0
                            : Histograms.micros(durationNanos * spec.connections() / sent);
                    estimatedHistogram = estimateFromLog(runDir.resolve(RequestLog.FILE_NAME), intervalMicros);
                }
                estimated = latency(estimatedHistogram);
                estimate = new RunResult.Estimate(Histograms.millis(intervalMicros), intervalSource,
                        "an estimate: HdrHistogram's recordValueWithExpectedInterval applied to service latency "
                                + "with an expected interval of " + Histograms.millis(intervalMicros)
                                + " ms, not a measurement");
            }
            if (spec.model() == TesterSpec.Model.CLOSED) {
                warnings.add("closed loop: each connection waits for its answer before sending again, so it "
                        + "sends nothing while the service stalls and cannot observe coordinated omission; "
                        + "corrected latency equals service latency");
            }
            if (total.dropped() > 0) {
                warnings.add(total.dropped() + " requests were dropped (never answered): unfinished "
                        + Histograms.millis(spec.graceNanos() / 1000.0) + " ms after the run's end ("
                        + total.droppedAfterSend() + " of them had been sent)");
            }
            if (recorder.skipped() > 0) {
                warnings.add(recorder.skipped() + " paced iterations were skipped (on_late: skip): "
                        + "the previous answer came after their intended time");
            }
            if (phase.waitedCount > 0) {
                warnings.add(phase.waitedCount + " requests waited (at most "
                        + Histograms.millis(Histograms.micros(phase.waitedMaxNanos)) + " ms) "
                        + (spec.model() == TesterSpec.Model.PACED ? "for the previous answer of their connection"
                        : "for a concurrency slot") + "; the wait is charged to corrected latency");
            }
            Histogram dispatch = recorder.dispatchLateness();
            if (dispatch.getTotalCount() > 0 && dispatch.getValueAtPercentile(99) > 1000) {
                warnings.add("the tester itself sent late: p99 " + Histograms.millis(dispatch.getValueAtPercentile(99))
                        + " ms between the moment it meant to send and the actual send; corrected latency "
                        + "includes that delay, so the tester, not only the service, may be the bottleneck");
            }
            if (recorder.lateToInterval() > 0) {
                warnings.add(recorder.lateToInterval() + " requests were created more than a second after their "
                        + "intended second had been written; they are counted in a later second of the timeline "
                        + "and the interval log (the totals are exact)");
            }
            if (total.errors() > 0) {
                warnings.add(total.errors() + " requests ended in an error");
            }

            List<RunResult.StepResult> steps = new ArrayList<>();
            for (Map.Entry<Integer, StepStats> entry : recorder.steps().entrySet()) {
                StepStats s = entry.getValue();
                steps.add(new RunResult.StepResult(entry.getKey(), phaseStepName(phase, entry.getKey()),
                        new RunResult.StepCounts(s.sent(), s.completed(), s.errors(), s.dropped()),
                        new RunResult.LatencyViews(latency(s.service()), latency(s.corrected()), null)));
            }
            List<RunResult.TimelinePoint> timeline = new ArrayList<>();
            for (SecondSummary s : recorder.timeline()) {
                timeline.add(new RunResult.TimelinePoint(s.tS(), s.count(), s.errors(),
                        new RunResult.Pair(s.serviceP50Ms(), s.serviceP99Ms()),
                        new RunResult.Pair(s.correctedP50Ms(), s.correctedP99Ms())));
            }
            double seconds = durationNanos / 1e9;
            return new RunResult(
                    spec.name(), tester(spec), spec.round(), spec.stall(), spec.seed(),
                    recorder.startNanos(), endNanos, durationNanos / 1e6, interrupted,
                    new RunResult.Counts(recorder.scheduled(), sent, total.completed(), total.errors(),
                            total.dropped(), recorder.skipped(), total.droppedAfterSend()),
                    new RunResult.LatencyViews(latency(total.service()), latency(total.corrected()), estimated),
                    estimate,
                    new RunResult.AboveObjective(spec.objectiveNanos() / 1e6, recorder.serviceAboveObjective(),
                            recorder.correctedAboveObjective()),
                    lateness(recorder.sendLateness()), lateness(dispatch),
                    new RunResult.Waits(phase.waitedCount, phase.waitedTotalNanos / 1e6, phase.waitedMaxNanos / 1e6),
                    seconds > 0 ? sent / seconds : 0,
                    new RunResult.Cost(cpuNanos < 0 || sent == 0 ? -1 : cpuNanos / (double) sent,
                            cpuNanos < 0 ? -1 : cpuNanos / 1e6),
                    timeline,
                    new RunResult.Spectrum(spectrum(total.service()), spectrum(total.corrected())),
                    steps, warnings, List.of(), RequestLog.FILE_NAME, RunRecorder.HLOG_FILE_NAME, null, null);
        }

        /** recordValueWithExpectedInterval over the per-request log, streamed: exact values, flat memory. */
        static Histogram estimateFromLog(Path log, long intervalMicros) throws IOException {
            Histogram estimated = Histograms.create();
            try (RequestLog.Reader records = RequestLog.read(log)) {
                while (records.hasNext()) {
                    var r = records.next();
                    if (r.serviceNanos() >= 0 && r.outcome() != io.loadsmith.tester.transport.Outcome.CANCELLED) {
                        estimated.recordValueWithExpectedInterval(Histograms.micros(r.serviceNanos()), intervalMicros);
                    }
                }
            }
            return estimated;
        }

        private static String phaseStepName(Phase phase, int step) {
            return phase.stepName(step);
        }

        static RunResult.Tester tester(TesterSpec spec) {
            boolean open = spec.model() == TesterSpec.Model.OPEN;
            boolean paced = spec.model() == TesterSpec.Model.PACED;
            List<RunResult.StageInfo> stages = spec.stages().isEmpty() ? null : spec.stages().stream()
                    .map(s -> new RunResult.StageInfo(s.durationNanos() / 1e6, s.targetPerSecond())).toList();
            return new RunResult.Tester(spec.model().wireName(),
                    open ? spec.arrivals().wireName() : null,
                    open ? spec.ratePerSecond() : null,
                    open && stages != null ? spec.startRatePerSecond() : null,
                    stages,
                    open ? null : spec.connections(),
                    paced ? spec.paceNanos() / 1e6 : null,
                    paced ? spec.onLate().wireName() : null,
                    open && spec.maxConcurrency() > 0 ? spec.maxConcurrency() : null,
                    spec.durationNanos() / 1e6, spec.graceNanos() / 1e6,
                    spec.warmupRequests() > 0 ? spec.warmupRequests() : null,
                    spec.warmupNanos() > 0 ? spec.warmupNanos() / 1e6 : null);
        }

        static RunResult.Latency latency(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new RunResult.Latency(0, 0, 0, 0, 0, 0, 0);
            }
            return new RunResult.Latency(ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9),
                    Histograms.millis(h.getMaxValue()), Histograms.millis(h.getMean()), h.getTotalCount());
        }

        static RunResult.Lateness lateness(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new RunResult.Lateness(0, 0, 0);
            }
            return new RunResult.Lateness(ms(h, 50), ms(h, 99), Histograms.millis(h.getMaxValue()));
        }

        private static double ms(Histogram h, double percentile) {
            return Histograms.millis(h.getValueAtPercentile(percentile));
        }

        static List<double[]> spectrum(Histogram h) {
            List<double[]> points = new ArrayList<>();
            if (h.getTotalCount() == 0) {
                return points;
            }
            for (HistogramIterationValue v : h.percentiles(5)) {
                points.add(new double[] {v.getPercentileLevelIteratedTo(),
                        Histograms.millis(h.highestEquivalentValue(v.getValueIteratedTo()))});
                if (v.getPercentileLevelIteratedTo() >= 100.0) {
                    break;
                }
            }
            return points;
        }
    }
}
