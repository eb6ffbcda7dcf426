package io.loadsmith.tester.engine;

import io.loadsmith.tester.schedule.Stage;

import java.util.List;
import java.util.Locale;

/**
 * What one tester run does: the load model and its parameters, in nanoseconds and per-second rates.
 * Build with {@link #open(double)}, {@link #closed(int)} or {@link #paced(int, long)} and the
 * {@code with...} methods; {@code ScenarioParser} builds it from a scenario's {@code load}. Immutable.
 *
 * <pre>{@code
 * TesterSpec spec = TesterSpec.open(50).arrivals(Arrivals.CONSTANT).duration(60_000_000_000L)
 *         .objective(50_000_000L).seed(7);
 * }</pre>
 */
public final class TesterSpec {

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

    private String name;
    private Model model;
    private Arrivals arrivals = Arrivals.POISSON;
    private double ratePerSecond;
    private double startRatePerSecond;
    private List<Stage> stages = List.of();
    private int connections;
    private long paceNanos;
    private OnLate onLate = OnLate.CATCH_UP;
    private long durationNanos = 30_000_000_000L;
    private long warmupRequests;
    private long warmupNanos;
    private int maxConcurrency;
    private long graceNanos = 10_000_000_000L;
    private long seed = 1;
    private long objectiveNanos = 10_000_000L;
    private long expectedIntervalNanos;
    private long startDelayNanos = 10_000_000L;
    private int round;
    private boolean stall;
    private boolean testerPauses = true;
    private long precisionNanos = Scheduler.DEFAULT_PRECISION_NANOS;
    private int shardIndex;
    private int shardCount = 1;
    private long startAtNanos = NO_START_AT;

    /** {@link #startAtNanos()} when the counted run starts as soon as it is ready. */
    public static final long NO_START_AT = Long.MIN_VALUE;

    private TesterSpec() {
    }

    private TesterSpec copy() {
        TesterSpec c = new TesterSpec();
        c.name = name;
        c.model = model;
        c.arrivals = arrivals;
        c.ratePerSecond = ratePerSecond;
        c.startRatePerSecond = startRatePerSecond;
        c.stages = stages;
        c.connections = connections;
        c.paceNanos = paceNanos;
        c.onLate = onLate;
        c.durationNanos = durationNanos;
        c.warmupRequests = warmupRequests;
        c.warmupNanos = warmupNanos;
        c.maxConcurrency = maxConcurrency;
        c.graceNanos = graceNanos;
        c.seed = seed;
        c.objectiveNanos = objectiveNanos;
        c.expectedIntervalNanos = expectedIntervalNanos;
        c.startDelayNanos = startDelayNanos;
        c.round = round;
        c.stall = stall;
        c.testerPauses = testerPauses;
        c.precisionNanos = precisionNanos;
        c.shardIndex = shardIndex;
        c.shardCount = shardCount;
        c.startAtNanos = startAtNanos;
        return c;
    }

    /** Open model: arrivals at ratePerSecond (Poisson unless {@link #arrivals} says constant). */
    public static TesterSpec open(double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be > 0 (got " + ratePerSecond + ")");
        }
        TesterSpec spec = new TesterSpec();
        spec.model = Model.OPEN;
        spec.ratePerSecond = ratePerSecond;
        spec.name = "open";
        return spec;
    }

    /** Open model with ramp stages from startRatePerSecond; the duration is the stages' total. */
    public static TesterSpec ramp(double startRatePerSecond, List<Stage> stages) {
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("stages must not be empty");
        }
        TesterSpec spec = new TesterSpec();
        spec.model = Model.OPEN;
        spec.startRatePerSecond = startRatePerSecond;
        spec.stages = List.copyOf(stages);
        spec.durationNanos = stages.stream().mapToLong(Stage::durationNanos).sum();
        spec.ratePerSecond = stages.stream().mapToDouble(Stage::targetPerSecond).max().orElse(0);
        spec.name = "open";
        return spec;
    }

    /** Closed model: N connections, each sends when its last answer is back. */
    public static TesterSpec closed(int connections) {
        requireConnections(connections);
        TesterSpec spec = new TesterSpec();
        spec.model = Model.CLOSED;
        spec.connections = connections;
        spec.name = "closed";
        return spec;
    }

    /** Paced model: N connections, iteration n of connection k intended at start + k·pace/N + n·pace. */
    public static TesterSpec paced(int connections, long paceNanos) {
        requireConnections(connections);
        if (paceNanos <= 0) {
            throw new IllegalArgumentException("pace must be > 0 (got " + paceNanos + " ns)");
        }
        TesterSpec spec = new TesterSpec();
        spec.model = Model.PACED;
        spec.connections = connections;
        spec.paceNanos = paceNanos;
        spec.name = "paced";
        return spec;
    }

    private static void requireConnections(int connections) {
        if (connections <= 0) {
            throw new IllegalArgumentException("connections must be > 0 (got " + connections + ")");
        }
    }

    public TesterSpec name(String value) {
        TesterSpec c = copy();
        c.name = value;
        return c;
    }

    public TesterSpec arrivals(Arrivals value) {
        TesterSpec c = copy();
        c.arrivals = value;
        return c;
    }

    public TesterSpec onLate(OnLate value) {
        TesterSpec c = copy();
        c.onLate = value;
        return c;
    }

    /** Counted run length (for ramps: set by the stages). */
    public TesterSpec duration(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("duration must be > 0 (got " + nanos + " ns)");
        }
        TesterSpec c = copy();
        c.durationNanos = nanos;
        return c;
    }

    /** Warm-up of a number of requests (journeys, for journeys), sent first and not counted. */
    public TesterSpec warmupRequests(long count) {
        TesterSpec c = copy();
        c.warmupRequests = Math.max(0, count);
        return c;
    }

    /** Warm-up of a duration, sent first and not counted. */
    public TesterSpec warmupDuration(long nanos) {
        TesterSpec c = copy();
        c.warmupNanos = Math.max(0, nanos);
        return c;
    }

    /** Open model: at most this many journeys active; 0 = no cap. */
    public TesterSpec maxConcurrency(int value) {
        TesterSpec c = copy();
        c.maxConcurrency = Math.max(0, value);
        return c;
    }

    /** How long after the run's end unfinished requests may still finish before they are cancelled. */
    public TesterSpec grace(long nanos) {
        TesterSpec c = copy();
        c.graceNanos = Math.max(0, nanos);
        return c;
    }

    public TesterSpec seed(long value) {
        TesterSpec c = copy();
        c.seed = value;
        return c;
    }

    /** Requests strictly above this latency are counted, for both latencies. */
    public TesterSpec objective(long nanos) {
        TesterSpec c = copy();
        c.objectiveNanos = nanos;
        return c;
    }

    /**
     * Closed model: the expected interval of the {@code estimated} view; 0 (default) = the measured mean
     * interval between sends of one connection (duration × connections / sent).
     */
    public TesterSpec expectedInterval(long nanos) {
        TesterSpec c = copy();
        c.expectedIntervalNanos = Math.max(0, nanos);
        return c;
    }

    /** Delay between the call to run (or the end of warm-up) and the counted start; default 10 ms. */
    public TesterSpec startDelay(long nanos) {
        TesterSpec c = copy();
        c.startDelayNanos = Math.max(0, nanos);
        return c;
    }

    public TesterSpec round(int value) {
        TesterSpec c = copy();
        c.round = value;
        return c;
    }

    /** Whether stalls were armed for this run (reported, not acted on by the engine). */
    public TesterSpec stall(boolean value) {
        TesterSpec c = copy();
        c.stall = value;
        return c;
    }

    /**
     * Whether a real run observes the tester's own pauses ({@code tester_pauses}, docs/pauses.md); on by
     * default. Read by the session layer, not by the engine.
     */
    public TesterSpec testerPauses(boolean value) {
        TesterSpec c = copy();
        c.testerPauses = value;
        return c;
    }

    /**
     * How late a send may go after its intended time ({@code load.precision}; default 50 µs): the real-time
     * scheduler wakes once per window this long and sends every request due in it ({@link
     * Scheduler#precision(long)}); each request still records its own intended and actual send.
     */
    public TesterSpec precision(long nanos) {
        TesterSpec c = copy();
        c.precisionNanos = Scheduler.checkedPrecision(nanos);
        return c;
    }

    public long precisionNanos() {
        return precisionNanos;
    }

    public String name() {
        return name;
    }

    public Model model() {
        return model;
    }

    public Arrivals arrivals() {
        return arrivals;
    }

    public double ratePerSecond() {
        return ratePerSecond;
    }

    public double startRatePerSecond() {
        return startRatePerSecond;
    }

    public List<Stage> stages() {
        return stages;
    }

    public int connections() {
        return connections;
    }

    public long paceNanos() {
        return paceNanos;
    }

    public OnLate onLate() {
        return onLate;
    }

    public long durationNanos() {
        return durationNanos;
    }

    public long warmupRequests() {
        return warmupRequests;
    }

    public long warmupNanos() {
        return warmupNanos;
    }

    public int maxConcurrency() {
        return maxConcurrency;
    }

    public long graceNanos() {
        return graceNanos;
    }

    public long seed() {
        return seed;
    }

    public long objectiveNanos() {
        return objectiveNanos;
    }

    public long expectedIntervalNanos() {
        return expectedIntervalNanos;
    }

    public long startDelayNanos() {
        return startDelayNanos;
    }

    public int round() {
        return round;
    }

    public boolean stall() {
        return stall;
    }

    public boolean testerPauses() {
        return testerPauses;
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
        TesterSpec c = copy();
        c.shardIndex = index;
        c.shardCount = count;
        return c;
    }

    /** This tester's shard, in [0, {@link #shardCount()}); 0 when unsharded. */
    public int shardIndex() {
        return shardIndex;
    }

    /** How many shards the load is split into; 1 when unsharded. */
    public int shardCount() {
        return shardCount;
    }

    /**
     * The counted run starts at {@code nanos} on the scheduler's clock (not before its warm-up and start delay
     * are over; a warm-up by duration begins so as to end there); {@link #NO_START_AT}: as soon as ready.
     */
    public TesterSpec startAt(long nanos) {
        TesterSpec c = copy();
        c.startAtNanos = nanos;
        return c;
    }

    /** When the counted run starts on the scheduler's clock, or {@link #NO_START_AT}. */
    public long startAtNanos() {
        return startAtNanos;
    }
}
