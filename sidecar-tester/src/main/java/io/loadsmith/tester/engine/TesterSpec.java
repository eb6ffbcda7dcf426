package io.loadsmith.tester.engine;

import io.loadsmith.tester.schedule.Stage;
import io.loadsmith.tester.scheduler.Scheduler;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What one tester run does: the load model and its parameters, in nanoseconds and per-second rates.
 * Build with {@link #open(double)}, {@link #ramp}, {@link #closed(int)} or {@link #paced(int, long)} and the
 * withers named after the settings; {@code ScenarioParser} builds it from a scenario's {@code load}. Immutable.
 *
 * <pre>{@code
 * TesterSpec spec = TesterSpec.open(50).arrivals(Arrivals.CONSTANT).duration(60_000_000_000L)
 *         .objective(50_000_000L).seed(7);
 * }</pre>
 *
 * The components are positional: build through the factories and withers, which check their values; only
 * {@link Copy} calls the canonical constructor.
 *
 * @param name                  the run's name in the results ("open", "closed", "paced" unless set)
 * @param ratePerSecond         open model: the arrival rate (for a ramp, its highest stage target)
 * @param startRatePerSecond    ramp: the rate the first stage starts from
 * @param stages                ramp: its stages; empty otherwise
 * @param connections           closed and paced models: how many connections send
 * @param paceNanos             paced model: the gap between a connection's iterations
 * @param durationNanos         the counted run's length (for a ramp, its stages' total)
 * @param warmupRequests        a warm-up of this many requests (journeys, for journeys), not counted
 * @param warmupNanos           a warm-up of this long, not counted
 * @param maxConcurrency        open model: at most this many journeys active; 0 = no cap
 * @param graceNanos            how long after the run's end unfinished requests may still finish
 * @param objectiveNanos        requests strictly above this latency are counted, for both latencies
 * @param expectedIntervalNanos closed model: the expected interval of the {@code estimated} view; 0 = measured
 * @param startDelayNanos       from the call to run (or the end of warm-up) to the counted start
 * @param precisionNanos        how late a send may go after its intended time ({@link #precision(long)})
 * @param shardIndex            this tester's shard ({@link #shard(int, int)}); 0 when unsharded
 * @param shardCount            how many shards the load is split into; 1 when unsharded
 * @param startAtNanos          when the counted run starts on the scheduler's clock, or {@link #NO_START_AT}
 */
public record TesterSpec(String name, Model model, Arrivals arrivals, double ratePerSecond,
                         double startRatePerSecond, List<Stage> stages, int connections, long paceNanos,
                         OnLate onLate, long durationNanos, long warmupRequests, long warmupNanos,
                         int maxConcurrency, long graceNanos, long seed, long objectiveNanos,
                         long expectedIntervalNanos, long startDelayNanos, long precisionNanos, int shardIndex,
                         int shardCount, long startAtNanos) {

    public enum Model { OPEN, CLOSED, PACED;
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Arrivals { POISSON, CONSTANT;
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum OnLate { CATCH_UP, SKIP;
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@link #startAtNanos()} when the counted run starts as soon as it is ready. */
    public static final long NO_START_AT = Long.MIN_VALUE;

    /**
     * The spec field by field, with every default, for the factories and the withers: each copies this spec,
     * sets what it changes and builds, so that a new field is added here and in the record alone.
     */
    private static final class Copy {
        String name;
        Model model;
        Arrivals arrivals = Arrivals.POISSON;
        double ratePerSecond;
        double startRatePerSecond;
        List<Stage> stages = List.of();
        int connections;
        long paceNanos;
        OnLate onLate = OnLate.CATCH_UP;
        long durationNanos = 30_000_000_000L;
        long warmupRequests;
        long warmupNanos;
        int maxConcurrency;
        long graceNanos = 10_000_000_000L;
        long seed = 1;
        long objectiveNanos = 10_000_000L;
        long expectedIntervalNanos;
        long startDelayNanos = 10_000_000L;
        long precisionNanos = Scheduler.DEFAULT_PRECISION_NANOS;
        int shardIndex;
        int shardCount = 1;
        long startAtNanos = NO_START_AT;

        /** A new spec of {@code model}, named after it. */
        Copy(Model model) {
            this.model = model;
            this.name = model.wireName();
        }

        Copy(TesterSpec s) {
            name = s.name;
            model = s.model;
            arrivals = s.arrivals;
            ratePerSecond = s.ratePerSecond;
            startRatePerSecond = s.startRatePerSecond;
            stages = s.stages;
            connections = s.connections;
            paceNanos = s.paceNanos;
            onLate = s.onLate;
            durationNanos = s.durationNanos;
            warmupRequests = s.warmupRequests;
            warmupNanos = s.warmupNanos;
            maxConcurrency = s.maxConcurrency;
            graceNanos = s.graceNanos;
            seed = s.seed;
            objectiveNanos = s.objectiveNanos;
            expectedIntervalNanos = s.expectedIntervalNanos;
            startDelayNanos = s.startDelayNanos;
            precisionNanos = s.precisionNanos;
            shardIndex = s.shardIndex;
            shardCount = s.shardCount;
            startAtNanos = s.startAtNanos;
        }

        TesterSpec build() {
            return new TesterSpec(name, model, arrivals, ratePerSecond, startRatePerSecond, stages, connections,
                    paceNanos, onLate, durationNanos, warmupRequests, warmupNanos, maxConcurrency, graceNanos, seed,
                    objectiveNanos, expectedIntervalNanos, startDelayNanos, precisionNanos, shardIndex, shardCount,
                    startAtNanos);
        }
    }

    private static TesterSpec of(Model model, Consumer<Copy> settings) {
        Copy c = new Copy(model);
        settings.accept(c);
        return c.build();
    }

    /** This spec with what {@code change} sets on a copy of its fields (every wither is one). */
    private TesterSpec with(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.build();
    }

    /** Open model: arrivals at ratePerSecond (Poisson unless {@link #arrivals} says constant). */
    public static TesterSpec open(double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be > 0 (got " + ratePerSecond + ")");
        }
        return of(Model.OPEN, c -> c.ratePerSecond = ratePerSecond);
    }

    /** Open model with ramp stages from startRatePerSecond; the duration is the stages' total. */
    public static TesterSpec ramp(double startRatePerSecond, List<Stage> stages) {
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("stages must not be empty");
        }
        return of(Model.OPEN, c -> {
            c.startRatePerSecond = startRatePerSecond;
            c.stages = List.copyOf(stages);
            c.durationNanos = stages.stream().mapToLong(Stage::durationNanos).sum();
            c.ratePerSecond = stages.stream().mapToDouble(Stage::targetPerSecond).max().orElse(0);
        });
    }

    /** Closed model: N connections, each sends when its last answer is back. */
    public static TesterSpec closed(int connections) {
        requireConnections(connections);
        return of(Model.CLOSED, c -> c.connections = connections);
    }

    /** Paced model: N connections, iteration n of connection k intended at start + k·pace/N + n·pace. */
    public static TesterSpec paced(int connections, long paceNanos) {
        requireConnections(connections);
        if (paceNanos <= 0) {
            throw new IllegalArgumentException("pace must be > 0 (got " + paceNanos + " ns)");
        }
        return of(Model.PACED, c -> {
            c.connections = connections;
            c.paceNanos = paceNanos;
        });
    }

    private static void requireConnections(int connections) {
        if (connections <= 0) {
            throw new IllegalArgumentException("connections must be > 0 (got " + connections + ")");
        }
    }

    public TesterSpec name(String value) {
        return with(c -> c.name = value);
    }

    public TesterSpec arrivals(Arrivals value) {
        return with(c -> c.arrivals = value);
    }

    public TesterSpec onLate(OnLate value) {
        return with(c -> c.onLate = value);
    }

    /** Counted run length (for ramps: set by the stages). */
    public TesterSpec duration(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("duration must be > 0 (got " + nanos + " ns)");
        }
        return with(c -> c.durationNanos = nanos);
    }

    /** Warm-up of a number of requests (journeys, for journeys), sent first and not counted. */
    public TesterSpec warmupRequests(long count) {
        return with(c -> c.warmupRequests = Math.max(0, count));
    }

    /** Warm-up of a duration, sent first and not counted. */
    public TesterSpec warmupDuration(long nanos) {
        return with(c -> c.warmupNanos = Math.max(0, nanos));
    }

    /** Open model: at most this many journeys active; 0 = no cap. */
    public TesterSpec maxConcurrency(int value) {
        return with(c -> c.maxConcurrency = Math.max(0, value));
    }

    /** How long after the run's end unfinished requests may still finish before they are cancelled. */
    public TesterSpec grace(long nanos) {
        return with(c -> c.graceNanos = Math.max(0, nanos));
    }

    public TesterSpec seed(long value) {
        return with(c -> c.seed = value);
    }

    /** Requests strictly above this latency are counted, for both latencies. */
    public TesterSpec objective(long nanos) {
        return with(c -> c.objectiveNanos = nanos);
    }

    /**
     * Closed model: the expected interval of the {@code estimated} view; 0 (default) = the measured mean
     * interval between sends of one connection (duration × connections / sent).
     */
    public TesterSpec expectedInterval(long nanos) {
        return with(c -> c.expectedIntervalNanos = Math.max(0, nanos));
    }

    /** Delay between the call to run (or the end of warm-up) and the counted start; default 10 ms. */
    public TesterSpec startDelay(long nanos) {
        return with(c -> c.startDelayNanos = Math.max(0, nanos));
    }

    /**
     * How late a send may go after its intended time ({@code load.precision}; default 50 µs): the real-time
     * scheduler wakes once per window this long and sends every request due in it ({@link
     * Scheduler#precision(long)}); each request still records its own intended and actual send.
     */
    public TesterSpec precision(long nanos) {
        long checked = Scheduler.checkedPrecision(nanos);
        return with(c -> c.precisionNanos = checked);
    }

    /**
     * This tester is shard {@code index} of {@code count} testers that run the same seeded load together
     * (each in its own process): an open tester sends the arrivals of the whole schedule marked
     * {@code index} ({@link io.loadsmith.tester.schedule.ScheduleShare}, marks {@code ArrivalStreams.of(seed,
     * "shard")}), a closed or paced tester runs connections k with {@code k mod count == index}.
     */
    public TesterSpec shard(int index, int count) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard must be I/N with 0 <= I < N (got " + index + "/" + count + ")");
        }
        return with(c -> {
            c.shardIndex = index;
            c.shardCount = count;
        });
    }

    /**
     * The counted run starts at {@code nanos} on the scheduler's clock (not before its warm-up and start delay
     * are over; a warm-up by duration begins so as to end there); {@link #NO_START_AT}: as soon as ready.
     */
    public TesterSpec startAt(long nanos) {
        return with(c -> c.startAtNanos = nanos);
    }
}
