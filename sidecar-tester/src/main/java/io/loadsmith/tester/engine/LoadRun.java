package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.LaneMerge;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.Recording;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.schedule.ArrivalStreams;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.scheduler.SystemScheduler;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.transport.Lane;
import io.loadsmith.tester.transport.Transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 *     RunResult result = LoadRun.run(TesterSpec.open(500).duration(30_000_000_000L), scheduler, http,
 *             RequestSource.get(URI.create("http://127.0.0.1:8080/")), Path.of("results/run-1/open"));
 * }
 * }</pre>
 *
 * With a {@link VirtualScheduler} the call drives the virtual clock itself until the run ends; with a real
 * scheduler it blocks the caller (not the scheduler) until the run ends. Phases: an optional warm-up (not
 * counted, not logged), then the counted run, which starts {@link TesterSpec#startDelayNanos()} after the
 * warm-up has drained and ends when every request has ended, been cancelled after the grace, or dropped.
 */
public final class LoadRun {

    private LoadRun() {
    }

    /**
     * What a run is given besides what it sends: its listener, the control that stops it early from any
     * thread ({@link RunControl}), and the executor that writes its files (tasks run one at a time, in order,
     * e.g. on one daemon thread, off the scheduler's thread: see {@link RunRecorder}'s constructor; the run
     * ends once it has written everything). {@link #defaults()}: no listener, a control nobody stops, the
     * files written on the scheduler's thread ({@code Runnable::run}: a virtual clock's runs stay
     * deterministic).
     *
     * <pre>{@code
     * LoadRun.run(spec, scheduler, transport, source, runDir, LoadRun.RunOptions.defaults().withControl(control));
     * }</pre>
     */
    public record RunOptions(RunListener listener, RunControl control, Executor writer) {

        /** No listener, never stopped early, files written on the scheduler's thread. */
        public static RunOptions defaults() {
            return new RunOptions(RunListener.NONE, new RunControl(), Runnable::run);
        }

        public RunOptions withListener(RunListener value) {
            return new RunOptions(value, control, writer);
        }

        public RunOptions withControl(RunControl value) {
            return new RunOptions(listener, value, writer);
        }

        public RunOptions withWriter(Executor value) {
            return new RunOptions(listener, control, value);
        }
    }

    /** Runs the tester on one lane with {@link RunOptions#defaults()}; see the class comment. */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir) throws IOException {
        return run(spec, scheduler, transport, source, runDir, RunOptions.defaults());
    }

    /** Runs the tester on one lane; see the class comment. */
    public static RunResult run(TesterSpec spec, Scheduler scheduler, Transport transport, RequestSource source,
                                Path runDir, RunOptions options) throws IOException {
        return run(spec, List.of(new Lane(scheduler, transport)), source, runDir, options);
    }

    /**
     * Runs the tester on lanes, each a scheduler with its transport and a share of the load, and returns
     * the one result of the run; {@code options.control().stop()} (from any thread) ends it early with
     * everything measured so far. One lane is the usual run. With n lanes:
     *
     * <ul>
     *   <li>an open tester's lane i sends share i of n of the schedule ({@link ArrivalSchedule#share}, marks
     *       {@code ArrivalStreams.of(seed, "lane")}): the lanes' arrivals together are the one-lane
     *       schedule, at the same intended times and arrival numbers; a closed or paced tester's lane i runs
     *       connections k with k mod n = i (closed arrival numbers: {@code n·j + i} for lane i's j-th
     *       journey); a warm-up of N requests gives each lane its share of N;</li>
     *   <li>the lanes share one counted start, decided when the last lane's warm-up ended ({@link
     *       RunListener#countedStart} is called once), and a user stop is handed to every lane; a failure
     *       in one lane fails the run and stops the others;</li>
     *   <li>each lane records on its own thread into a {@link RunRecorder} of its own, in a folder
     *       {@code .lane-i} of runDir, its files written by the one writer of the options; when the last lane
     *       ended, {@link LaneMerge} writes the run's files and figures from them and the lane folders are
     *       deleted.</li>
     * </ul>
     *
     * The lanes' schedulers must read the same clock; a scheduler {@link Scheduler#drivenByCaller driven by the
     * caller} (the virtual one) must be every lane's, and this call drives it until the run ends.
     */
    public static RunResult run(TesterSpec spec, List<Lane> lanes, RequestSource source, Path runDir,
                                RunOptions options) throws IOException {
        RunControl control = options.control();
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one lane");
        }
        Scheduler first = lanes.get(0).scheduler();
        for (Lane lane : lanes) {
            if ((first.drivenByCaller() || lane.scheduler().drivenByCaller()) && lane.scheduler() != first) {
                throw new IllegalArgumentException("a virtual scheduler drives a run alone: every lane must be on it");
            }
        }
        for (Lane lane : lanes) {
            lane.scheduler().precision(spec.precisionNanos());
        }
        Run run = new Run(spec, lanes, source, runDir, options.listener(), control.live(), options.writer());
        run.future.whenComplete((result, failure) -> {
            if (control.live() != null) {
                control.live().finished();
            }
            control.markFinished();
        });
        control.attach(first, run::userStop);
        for (Run.LaneRun lane : run.lanes) {
            lane.scheduler.at(Math.max(lane.scheduler.nanoTime(), run.beginNanos()), lane::begin);
        }
        if (!first.driveUntil(run.future::isDone)) {
            throw new IllegalStateException("the virtual scheduler ran out of events before the run ended");
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

    /**
     * One run over its lanes. Each lane's state is touched by its scheduler's thread only; the lanes meet
     * (under this object's lock) only when a warm-up ends and when a counted phase ends.
     */
    private static final class Run {
        /** Marks the lanes' shares of an open schedule draw from: independent of every other draw. */
        static final String LANE_MARKS = "lane";
        /** Marks the shards' shares draw from: independent of the lanes' and of every other draw. */
        static final String SHARD_MARKS = "shard";

        final TesterSpec spec;
        final RequestSource source;
        final Path runDir;
        final RunListener listener;
        final LiveStats live;
        final Executor writer;
        final List<LaneRun> lanes = new ArrayList<>();
        final CompletableFuture<RunResult> future = new CompletableFuture<>();
        volatile boolean stopRequested;
        // under this object's lock
        int warmingUp;
        int counting;
        long cpuStartNanos;

        Run(TesterSpec spec, List<Lane> lanes, RequestSource source, Path runDir, RunListener listener,
            LiveStats live, Executor writer) {
            this.live = live;
            if (live != null) {
                live.stepNames(source::stepName);
            }
            this.writer = writer;
            this.spec = spec;
            this.source = source;
            this.runDir = runDir;
            this.listener = listener;
            for (int i = 0; i < lanes.size(); i++) {
                Path dir = lanes.size() == 1 ? runDir : runDir.resolve(".lane-" + i);
                this.lanes.add(new LaneRun(i, lanes.get(i), dir));
            }
            warmingUp = lanes.size();
            counting = lanes.size();
        }

        boolean oneLane() {
            return lanes.size() == 1;
        }

        /** On the first lane's thread: the user asked to stop (see {@link RunControl}); every lane stops. */
        void userStop() {
            if (future.isDone()) {
                return;
            }
            stopRequested = true;
            if (live != null) {
                live.stopped(lanes.get(0).scheduler.nanoTime());
            }
            for (LaneRun lane : lanes) {
                hand(lane.scheduler, lane::userStop);
            }
        }

        /** On lane's thread: its warm-up ended (or it had none); the last one starts the counted run. */
        void warmedUp(LaneRun lane) throws IOException {
            synchronized (this) {
                if (--warmingUp > 0) {
                    return;
                }
            }
            long decideAt = spec.startAtNanos() == TesterSpec.NO_START_AT ? Long.MIN_VALUE
                    : spec.startAtNanos() - spec.startDelayNanos();
            if (lane.scheduler.nanoTime() < decideAt) {
                // the listener hears of the start a start delay before it, as without a start time (it may arm stalls)
                lane.scheduler.at(decideAt, () -> lane.guard(() -> startCounted(lane)));
            } else {
                startCounted(lane);
            }
        }

        /** On lane's thread, once every lane is warm: decides the counted start and starts every lane there. */
        void startCounted(LaneRun lane) throws IOException {
            long ready = lane.scheduler.nanoTime() + spec.startDelayNanos();
            long start = spec.startAtNanos() == TesterSpec.NO_START_AT ? ready : Math.max(ready, spec.startAtNanos());
            listener.countedStart(start);
            if (live != null) {
                live.counting(start, spec.durationNanos());
            }
            for (LaneRun other : lanes) {
                if (other != lane) {
                    other.scheduler.at(other.scheduler.nanoTime(), () -> other.guard(() -> other.beginCounted(start)));
                }
            }
            lane.beginCounted(start);
            long cpu = processCpuNanos();
            synchronized (this) {
                cpuStartNanos = cpu;
            }
        }

        /** On lane's thread: its counted phase ended; the last one makes the run's result. */
        void counted(LaneRun lane, Phase phase) throws IOException {
            long durationNanos = phase.userStopped() ? phase.endNanos() - phase.startNanos() : spec.durationNanos();
            if (oneLane()) {
                long cpuNanos = processCpuNanos() - cpuStartNanos;
                long end = lane.scheduler.nanoTime();
                lane.recorder.finish(durationNanos);
                future.complete(ResultAssembler.build(spec, lane.recorder, phase, end, cpuNanos, runDir));
                return;
            }
            lane.recorder.finish(durationNanos);
            long cpuStart;
            synchronized (this) {
                if (--counting > 0) {
                    return;
                }
                cpuStart = cpuStartNanos;
            }
            long cpuNanos = processCpuNanos() - cpuStart;
            long end = lane.scheduler.nanoTime();
            List<RunRecorder> recorders = new ArrayList<>();
            List<Path> dirs = new ArrayList<>();
            List<Phase> phases = new ArrayList<>();
            for (LaneRun each : lanes) {
                recorders.add(each.recorder);
                dirs.add(each.dir);
                phases.add(each.current);
            }
            try {
                Recording merged = LaneMerge.merge(recorders, dirs, runDir);
                future.complete(ResultAssembler.build(spec, merged, phases, end, cpuNanos, runDir));
            } finally {
                for (Path dir : dirs) {
                    LaneMerge.delete(dir);
                }
            }
        }

        /** On a lane's thread: the run failed there; the other lanes are stopped. */
        void failed(LaneRun lane, Throwable failure) {
            lane.discard();
            if (future.completeExceptionally(failure)) {
                for (LaneRun other : lanes) {
                    if (other != lane) {
                        hand(other.scheduler, () -> other.abort(failure));
                    }
                }
            }
        }

        ArrivalSchedule schedule(long seed, long durationNanos, int lane) {
            if (spec.model() != TesterSpec.Model.OPEN) {
                return null;
            }
            boolean poisson = spec.arrivals() == TesterSpec.Arrivals.POISSON;
            ArrivalSchedule whole;
            if (!spec.stages().isEmpty()) {
                whole = ArrivalSchedule.stages(spec.startRatePerSecond(), spec.stages(), poisson, seed);
            } else {
                whole = poisson ? ArrivalSchedule.poisson(spec.ratePerSecond(), durationNanos, seed)
                        : ArrivalSchedule.constant(spec.ratePerSecond(), durationNanos);
            }
            if (spec.shardCount() > 1) {
                whole = whole.share(spec.shardIndex(), spec.shardCount(), ArrivalStreams.of(spec.seed(), SHARD_MARKS));
            }
            return oneLane() ? whole : whole.share(lane, lanes.size(), ArrivalStreams.of(spec.seed(), LANE_MARKS));
        }

        /**
         * When the lanes begin: at once, or, with a start time and a warm-up by duration, so that the warm-up
         * ends about when the counted run is to start.
         */
        long beginNanos() {
            if (spec.startAtNanos() == TesterSpec.NO_START_AT || spec.warmupNanos() <= 0) {
                return Long.MIN_VALUE;
            }
            return spec.startAtNanos() - spec.warmupNanos() - 2 * spec.startDelayNanos();
        }

        /** The interval of the estimated view: none (open), the expected interval (closed) or the pace. */
        long expectedIntervalNanos() {
            return switch (spec.model()) {
                case OPEN -> 0;
                case CLOSED -> spec.expectedIntervalNanos();
                case PACED -> spec.paceNanos();
            };
        }

        /** Lane i's share of n journeys (of this shard's share of them): split evenly, the first ones one more. */
        long share(long journeys, int lane) {
            if (journeys == Long.MAX_VALUE) {
                return journeys;
            }
            return split(split(journeys, spec.shardIndex(), spec.shardCount()), lane, lanes.size());
        }

        /** Part i of n parts of count: count / n, one more for the first count mod n parts. */
        static long split(long count, int i, int n) {
            return count / n + (i < count % n ? 1 : 0);
        }

        /** Runs task on the scheduler's thread: at once when already there, else as its next task. */
        static void hand(Scheduler scheduler, Runnable task) {
            if (scheduler.inThread()) {
                task.run();
            } else {
                scheduler.at(scheduler.nanoTime(), task);
            }
        }

        interface LaneStep {
            void run() throws IOException;
        }

        /** A lane: its scheduler's thread is the only one that touches these fields. */
        final class LaneRun {
            final int index;
            final Scheduler scheduler;
            final Transport transport;
            final Path dir;
            RunRecorder recorder;
            Phase current;

            LaneRun(int index, Lane lane, Path dir) {
                this.index = index;
                this.scheduler = lane.scheduler();
                this.transport = lane.transport();
                this.dir = dir;
            }

            void begin() {
                guard(() -> {
                    if (spec.warmupRequests() > 0 || spec.warmupNanos() > 0) {
                        long start = scheduler.nanoTime() + spec.startDelayNanos();
                        if (live != null) {
                            live.warmingUp(start);
                        }
                        long duration = spec.warmupNanos() > 0 ? spec.warmupNanos() : Long.MAX_VALUE;
                        long limit = share(spec.warmupRequests() > 0 ? spec.warmupRequests() : Long.MAX_VALUE, index);
                        // the warm-up draws its arrivals from its own stream: the counted schedule stays the same
                        ArrivalSchedule schedule = schedule(spec.seed() ^ 0x5761726d55705f31L, duration, index);
                        // recorded like the counted run, then thrown away: the recording path is warm at its start
                        RunRecorder warmupRecorder = RunRecorder.discarding(start, spec.objectiveNanos(),
                                expectedIntervalNanos(), source::stepName, spec.model() == TesterSpec.Model.CLOSED);
                        started(new Phase(scheduler, transport, source, spec, warmupRecorder, start, duration, limit,
                                schedule, index, lanes.size(), done -> guard(() -> {
                                    warmupRecorder.close();
                                    warmedUp(this);
                                }), this::fail));
                    } else {
                        warmedUp(this);
                    }
                });
            }

            void beginCounted(long start) throws IOException {
                if (future.isDone()) {
                    return;
                }
                recorder = new RunRecorder(dir, start, spec.objectiveNanos(), expectedIntervalNanos(), source::stepName,
                        spec.model() == TesterSpec.Model.CLOSED, writer);
                recorder.live(live);
                started(new Phase(scheduler, transport, source, spec, recorder, start, spec.durationNanos(),
                        Long.MAX_VALUE, schedule(spec.seed(), spec.durationNanos(), index), index, lanes.size(),
                        done -> guard(() -> counted(this, done)), this::fail));
            }

            void started(Phase phase) {
                current = phase;
                phase.reportLateSendsTo(listener);
                phase.start();
                if (stopRequested) {
                    phase.userStop();
                }
            }

            void userStop() {
                if (current != null && !future.isDone()) {
                    guard(current::userStop);
                }
            }

            void guard(LaneStep step) {
                try {
                    step.run();
                } catch (IOException e) {
                    fail(new UncheckedIOException(e));
                } catch (RuntimeException | Error e) {
                    fail(e);
                }
            }

            void fail(Throwable failure) {
                failed(this, failure);
            }

            /** Another lane failed: this one's phase ends where it is and its files go. */
            void abort(Throwable failure) {
                if (current != null && !current.finished()) {
                    current.fail(failure); // back to failed(...), which only discards: the run has failed
                } else {
                    discard();
                }
            }

            void discard() {
                if (recorder != null) {
                    try {
                        recorder.close();
                    } catch (IOException ignored) {
                        // the first failure is the one reported
                    }
                }
                if (!oneLane()) {
                    try {
                        LaneMerge.delete(dir);
                    } catch (IOException ignored) {
                        // the run failed already; the failure reported is that one
                    }
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
