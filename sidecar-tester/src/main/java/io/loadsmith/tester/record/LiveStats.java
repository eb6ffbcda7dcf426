package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What a running test has measured so far, for readers on other threads (the console's progress line, the
 * metrics endpoint): the counted run's three latencies (service, corrected and send lateness, µs, 1 µs to
 * 1 h, 2 significant digits) in HdrHistogram {@link Recorder}s (wait-free for the recording threads; a
 * reader swaps out an interval histogram and adds it to a running one), the requests that ended by step and {@link Outcome} and those
 * dropped by step (one atomic increment each), the run's phase, and the stall windows the agent armed and
 * reported.
 *
 * <p>Writers: the {@link RunRecorder}s of the counted run feed the measurements from the scheduler's threads
 * (one per lane): nothing there takes a lock or allocates. The engine marks the phases (a volatile write at
 * each change, never per request); the stall feed's thread adds the windows. Readers: any thread; the
 * histogram readers ({@link #read}) take this object's lock, which no writer takes.
 */
public final class LiveStats {

    /**
     * Step ids counted each on its own, 0 to {@code STEPS - 2}; the requests of higher (or negative) ids are
     * counted together under {@code STEPS - 1} ({@link #OTHER_STEP}).
     */
    public static final int STEPS = 256;
    /** The step id every step id outside 0 to {@code STEPS - 2} is counted under. */
    public static final int OTHER_STEP = STEPS - 1;
    /** A phase moment not reached yet. */
    private static final long NOT_YET = Long.MIN_VALUE;
    private static final Outcome[] OUTCOMES = Outcome.values();
    /**
     * The live histograms' precision: 2 significant digits (1 %), enough for a progress line and the metrics'
     * buckets, at a tenth of the memory of the run's own 3-digit histograms (about 30 kB each instead of
     * 380 kB; twelve of them live here, which would otherwise add 4.5 MB to the tester's old generation).
     */
    static final int SIGNIFICANT_DIGITS = 2;

    /** The latencies kept live, each in µs. */
    public enum LatencyKind {
        /** End − actual send. */
        SERVICE,
        /** End − intended send (a closed loop: − actual send). */
        CORRECTED,
        /** Actual send − intended send. */
        SEND_LATENESS
    }

    /** Where the run is, as the engine marked it ({@link #phase}). */
    public enum RunPhase {
        /** Preparing: nothing sent yet. */
        STARTING,
        /** Warming up (not counted), or waiting for the counted start. */
        WARMUP,
        /** The counted run: sends are scheduled. */
        COUNTED,
        /** The counted run's duration is over (or a stop came): the requests in flight get the grace. */
        GRACE,
        /** The run ended: every figure is final. */
        DONE
    }

    /**
     * One stall window on the tester's clock, ns: as planned when the agent was armed, or as it happened once
     * the agent reported it ({@code reported}).
     */
    public record LiveWindow(long startNanos, long endNanos, boolean reported) {
    }

    private final Recorder[] recorders = new Recorder[LatencyKind.values().length];
    private final AtomicLongArray ended = new AtomicLongArray(STEPS * OUTCOMES.length);
    private final AtomicLongArray dropped = new AtomicLongArray(STEPS);

    private volatile long warmupStartNanos = NOT_YET;
    private volatile long countedStartNanos = NOT_YET;
    private volatile long countedEndNanos = NOT_YET;
    private volatile boolean done;
    private volatile IntFunction<String> stepNames = step -> "step" + step;

    // reader side, under this object's lock
    private final Histogram[] sinceStart = new Histogram[LatencyKind.values().length];
    private final Histogram[] interval = new Histogram[LatencyKind.values().length];

    // the stall feed's side, under the stalls' lock
    private final Map<String, LiveWindow> stalls = new HashMap<>();

    public LiveStats() {
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = new Recorder(1, Histograms.HIGHEST_MICROS, SIGNIFICANT_DIGITS);
            sinceStart[i] = new Histogram(1, Histograms.HIGHEST_MICROS, SIGNIFICANT_DIGITS);
        }
    }

    // ---- the recording threads

    void record(long serviceMicros, long correctedMicros, long sendLatenessMicros) {
        recorders[LatencyKind.SERVICE.ordinal()].recordValue(serviceMicros);
        recorders[LatencyKind.CORRECTED.ordinal()].recordValue(correctedMicros);
        recorders[LatencyKind.SEND_LATENESS.ordinal()].recordValue(sendLatenessMicros);
    }

    void countEnded(int step, Outcome outcome) {
        ended.incrementAndGet(slot(step) * OUTCOMES.length + outcome.ordinal());
    }

    void countDropped(int step) {
        dropped.incrementAndGet(slot(step));
    }

    private static int slot(int step) {
        return step >= 0 && step < OTHER_STEP ? step : OTHER_STEP;
    }

    // ---- the engine: phases

    /** The names of the step ids ({@link #stepName}); must be safe to call from any thread. */
    public void stepNames(IntFunction<String> names) {
        this.stepNames = names;
    }

    /** A warm-up began at {@code nanos}. */
    public void warmingUp(long nanos) {
        if (warmupStartNanos == NOT_YET) {
            warmupStartNanos = nanos;
        }
    }

    /** The counted run starts at {@code startNanos} and lasts {@code durationNanos}, then the grace. */
    public void counting(long startNanos, long durationNanos) {
        countedEndNanos = startNanos + durationNanos;
        countedStartNanos = startNanos;
    }

    /** A user stop at {@code nanos}: the grace begins there if the counted run was still going. */
    public void stopped(long nanos) {
        long end = countedEndNanos;
        if (end == NOT_YET || nanos < end) {
            countedEndNanos = nanos;
        }
    }

    /** The run ended (with a result or a failure). */
    public void finished() {
        done = true;
    }

    /** The phase at {@code nowNanos} (the scheduler's clock). */
    public RunPhase phase(long nowNanos) {
        if (done) {
            return RunPhase.DONE;
        }
        long start = countedStartNanos;
        if (start != NOT_YET && nowNanos >= start) {
            return nowNanos < countedEndNanos ? RunPhase.COUNTED : RunPhase.GRACE;
        }
        if (start != NOT_YET || warmupStartNanos != NOT_YET) {
            return RunPhase.WARMUP;
        }
        return RunPhase.STARTING;
    }

    // ---- the stall feed

    /** A window of {@code agent}'s plan as the agent armed it ({@code index} its index in the plan). */
    public void stallPlanned(String agent, int index, long startNanos, long endNanos) {
        synchronized (stalls) {
            stalls.putIfAbsent(agent + "#" + index, new LiveWindow(startNanos, endNanos, false));
        }
    }

    /** A window of {@code agent}'s as the agent reported it once it ended: it replaces the planned one. */
    public void stallReported(String agent, int index, long startNanos, long endNanos) {
        synchronized (stalls) {
            stalls.put(agent + "#" + index, new LiveWindow(startNanos, endNanos, true));
        }
    }

    /** Every stall window known so far, planned and reported, in no particular order. */
    public List<LiveWindow> stalls() {
        synchronized (stalls) {
            return new ArrayList<>(stalls.values());
        }
    }

    // ---- readers

    /**
     * Takes what was recorded since the last read into the running histogram of {@code latency} and hands
     * it to {@code reader} (µs, since the counted run began) under this object's lock: the reader must not
     * keep it. Not for the recording threads.
     */
    public synchronized <T> T read(LatencyKind latency, Function<Histogram, T> reader) {
        int i = latency.ordinal();
        interval[i] = recorders[i].getIntervalHistogram(interval[i]);
        sinceStart[i].add(interval[i]);
        return reader.apply(sinceStart[i]);
    }

    /** The name of step id {@code step} ({@link #OTHER_STEP}: {@code other}). */
    public String stepName(int step) {
        return step == OTHER_STEP ? "other" : stepNames.apply(step);
    }

    /** Requests of step id {@code step} (0 to {@link #OTHER_STEP}) that ended with {@code outcome} so far. */
    public long ended(int step, Outcome outcome) {
        return ended.get(step * OUTCOMES.length + outcome.ordinal());
    }

    /** Requests of step id {@code step} (0 to {@link #OTHER_STEP}) dropped at the end of the grace so far. */
    public long dropped(int step) {
        return dropped.get(step);
    }

    /** Requests that ended (with an answer or an error) so far. */
    public long ended() {
        long sum = 0;
        for (int i = 0; i < ended.length(); i++) {
            sum += ended.get(i);
        }
        return sum;
    }

    /** Requests that ended in an error so far. */
    public long errors() {
        long sum = 0;
        for (Outcome outcome : OUTCOMES) {
            sum += errors(outcome);
        }
        return sum;
    }

    /** Requests that ended with this outcome so far (0 for {@link Outcome#OK}: see {@link #ended()}). */
    public long errors(Outcome outcome) {
        if (outcome == Outcome.OK) {
            return 0;
        }
        long sum = 0;
        for (int step = 0; step < STEPS; step++) {
            sum += ended(step, outcome);
        }
        return sum;
    }

    /** The errors so far by outcome, those with none left out, in the order of {@link Outcome}. */
    public Map<Outcome, Long> errorsByOutcome() {
        Map<Outcome, Long> byOutcome = new EnumMap<>(Outcome.class);
        for (Outcome outcome : OUTCOMES) {
            long count = errors(outcome);
            if (count > 0) {
                byOutcome.put(outcome, count);
            }
        }
        return byOutcome;
    }
}
