package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.transport.Transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

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
 * counted, not logged: recorded into a recorder that writes nothing and is thrown away), then the counted
 * run, which starts {@link TesterSpec#startDelayNanos()} after the warm-up has drained and ends when every
 * request has ended, been cancelled after the grace, or dropped.
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
        return run(spec, scheduler, transport, source, runDir, listener, control, Runnable::run);
    }

    /**
     * {@link #run(TesterSpec, Scheduler, Transport, RequestSource, Path, RunListener, RunControl)} with the run's
     * files written by {@code writer} (tasks run one at a time, in order, e.g. on one daemon thread), off the
     * scheduler's thread: see {@link RunRecorder}'s constructor. The run ends once the writer has written
     * everything. {@code Runnable::run} writes on the scheduler's thread (a virtual clock's runs stay
     * deterministic).
     */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir, RunListener listener, RunControl control, Executor writer)
            throws IOException {
        Run run = new Run(spec, scheduler, transport, source, runDir, listener, control.live(), writer);
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
        final LiveStats live;
        final Executor writer;
        final CompletableFuture<RunResult> future = new CompletableFuture<>();
        RunRecorder recorder;
        long cpuStartNanos;
        Phase current;
        boolean stopRequested;

        Run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source, Path runDir,
            RunListener listener, LiveStats live, Executor writer) {
            this.live = live;
            this.writer = writer;
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
                    // recorded like the counted run, then thrown away: the recording path is warm at its start
                    RunRecorder warmupRecorder = RunRecorder.discarding(start, spec.objectiveNanos(),
                            expectedIntervalNanos(), source::stepName, spec.model() == TesterSpec.Model.CLOSED);
                    started(new Phase(scheduler, transport, source, spec, warmupRecorder, start, duration, limit,
                            schedule, done -> guard(() -> {
                                warmupRecorder.close();
                                beginCounted();
                            }), this::fail));
                } else {
                    beginCounted();
                }
            });
        }

        void beginCounted() throws IOException {
            long start = scheduler.nanoTime() + spec.startDelayNanos();
            listener.countedStart(start);
            recorder = new RunRecorder(runDir, start, spec.objectiveNanos(), expectedIntervalNanos(), source::stepName,
                    spec.model() == TesterSpec.Model.CLOSED, writer);
            recorder.live(live);
            cpuStartNanos = processCpuNanos();
            started(new Phase(scheduler, transport, source, spec, recorder, start, spec.durationNanos(),
                    Long.MAX_VALUE, schedule(spec.seed(), spec.durationNanos()), done -> guard(() -> finish(done)),
                    this::fail));
        }

        /** The interval of the estimated view: none (open), the expected interval (closed) or the pace. */
        long expectedIntervalNanos() {
            return switch (spec.model()) {
                case OPEN -> 0;
                case CLOSED -> spec.expectedIntervalNanos();
                case PACED -> spec.paceNanos();
            };
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
            future.complete(ResultAssembler.build(spec, recorder, phase, end, cpuNanos, runDir));
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
}
