package io.loadsmith.stall.plan;

import io.loadsmith.stall.clock.Nanos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A deterministic list of stall windows, as offsets from the moment of arming. The agent and the tester
 * compute the same plan from the same inputs because they share this class.
 *
 * <p>A seeded plan draws start-to-start gaps {@code min_gap + Exp(mean_interval - min_gap)} from
 * {@code new SplittableRandom(seed)}: for each stall one {@code nextDouble()} u in [0, 1), transformed as
 * {@code round(-(mean - minGap) * StrictMath.log1p(-u))} nanoseconds (StrictMath so that every JVM gets
 * the same bits). The first stall starts one gap after arming; offsets are exact sums of the integer
 * gaps. A stall is in the plan only if it ends within the horizon. docs/stall-plan.md has the details.
 *
 * <p>Immutable and thread-safe.
 */
public final class StallPlan {

    /** The most stalls one plan may hold; a plan that would hold more is refused. */
    public static final int MAX_STALLS = 100_000;

    /**
     * The longest mean interval, 10^9 ms (about 11.6 days): an exponential draw is at most about 37 means,
     * so gaps and offsets stay far from 64-bit overflow.
     */
    public static final long MAX_MEAN_INTERVAL_NANOS = 1_000_000_000L * Nanos.PER_MILLI;

    private final StallKind kind;
    private final List<PlannedStall> stalls;
    private final long horizonNanos;
    private final SeededPlanSpec seededSpec;

    private StallPlan(StallKind kind, List<PlannedStall> stalls, long horizonNanos, SeededPlanSpec seededSpec) {
        this.kind = kind;
        this.stalls = List.copyOf(stalls);
        this.horizonNanos = horizonNanos;
        this.seededSpec = seededSpec;
    }

    /**
     * The seeded plan of {@code spec}.
     *
     * @throws PlanException naming the field if a value is out of range or the plan would exceed
     *                       {@link #MAX_STALLS}
     */
    public static StallPlan seeded(SeededPlanSpec spec, StallKind kind) {
        validate(spec);
        List<PlannedStall> stalls = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(spec.seed());
        long offsetNanos = 0;
        while (true) {
            offsetNanos += gapNanos(random, spec);
            if (offsetNanos + spec.durationNanos() > spec.horizonNanos()) {
                break;
            }
            if (stalls.size() == MAX_STALLS) {
                throw new PlanException("horizon", "the plan would hold more than " + MAX_STALLS
                        + " stalls; shorten the horizon or lengthen mean_interval");
            }
            stalls.add(new PlannedStall(stalls.size(), offsetNanos, spec.durationNanos()));
        }
        return new StallPlan(nonNull(kind), stalls, spec.horizonNanos(), spec);
    }

    /**
     * A plan of exactly the given windows, sorted by offset; its horizon is the end of the last one.
     *
     * @param windows (offset, duration) pairs as {@link PlannedStall}s whose index is ignored
     * @throws PlanException naming {@code stalls[i].offset} or {@code stalls[i].duration} (i in the order
     *                       given) for a negative offset, a non-positive duration or overlapping windows
     */
    public static StallPlan explicit(List<PlannedStall> windows, StallKind kind) {
        if (windows.isEmpty()) {
            throw new PlanException("stalls", "must list at least one stall (or give a horizon: a plan of no stalls)");
        }
        List<PlannedStall> stalls = sorted(windows);
        return new StallPlan(nonNull(kind), stalls, stalls.get(stalls.size() - 1).endOffsetNanos(), null);
    }

    /**
     * A plan of exactly the given windows over {@code horizonNanos}, which must reach at least the end of the
     * last one. With no windows it is the control half of a paired run: arming it runs everything an armed
     * plan runs (the pause observer over the horizon, the run's id) and holds nothing.
     *
     * @throws PlanException as {@link #explicit(List, StallKind)}, and naming {@code horizon} for a horizon
     *                       that is not positive or ends before the last window
     */
    public static StallPlan explicit(List<PlannedStall> windows, StallKind kind, long horizonNanos) {
        if (horizonNanos <= 0) {
            throw new PlanException("horizon", "must be > 0 (got " + millis(horizonNanos) + ")");
        }
        List<PlannedStall> stalls = windows.isEmpty() ? List.of() : sorted(windows);
        long lastEndNanos = stalls.isEmpty() ? 0 : stalls.get(stalls.size() - 1).endOffsetNanos();
        if (horizonNanos < lastEndNanos) {
            throw new PlanException("horizon", "must reach the end of the last stall (got " + millis(horizonNanos)
                    + ", before " + millis(lastEndNanos) + ")");
        }
        return new StallPlan(nonNull(kind), stalls, horizonNanos, null);
    }

    /** The windows checked and sorted by offset, indexed in that order. */
    private static List<PlannedStall> sorted(List<PlannedStall> windows) {
        if (windows.size() > MAX_STALLS) {
            throw new PlanException("stalls", "must list at most " + MAX_STALLS + " stalls (got " + windows.size() + ")");
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < windows.size(); i++) {
            PlannedStall window = windows.get(i);
            if (window.offsetNanos() < 0) {
                throw new PlanException("stalls[" + i + "].offset", "must be >= 0 (got " + millis(window.offsetNanos()) + ")");
            }
            if (window.durationNanos() <= 0) {
                throw new PlanException("stalls[" + i + "].duration", "must be > 0 (got " + millis(window.durationNanos()) + ")");
            }
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> windows.get(i).offsetNanos()));
        List<PlannedStall> stalls = new ArrayList<>();
        for (int given : order) {
            PlannedStall window = windows.get(given);
            if (!stalls.isEmpty() && stalls.get(stalls.size() - 1).endOffsetNanos() > window.offsetNanos()) {
                throw new PlanException("stalls[" + given + "].offset", "overlaps the stall before it (starts at "
                        + millis(window.offsetNanos()) + ", before "
                        + millis(stalls.get(stalls.size() - 1).endOffsetNanos()) + ")");
            }
            stalls.add(new PlannedStall(stalls.size(), window.offsetNanos(), window.durationNanos()));
        }
        return stalls;
    }

    private static long gapNanos(SplittableRandom random, SeededPlanSpec spec) {
        double u = random.nextDouble();
        double exponentialMeanNanos = spec.meanIntervalNanos() - spec.minGapNanos();
        return spec.minGapNanos() + Math.round(-exponentialMeanNanos * StrictMath.log1p(-u));
    }

    private static void validate(SeededPlanSpec spec) {
        if (spec.durationNanos() <= 0) {
            throw new PlanException("duration", "must be > 0 (got " + millis(spec.durationNanos()) + ")");
        }
        if (spec.minGapNanos() < spec.durationNanos()) {
            throw new PlanException("min_gap", "must be >= duration, start to start (got "
                    + millis(spec.minGapNanos()) + " < " + millis(spec.durationNanos()) + ")");
        }
        if (spec.meanIntervalNanos() < spec.minGapNanos()) {
            throw new PlanException("mean_interval", "must be >= min_gap (got "
                    + millis(spec.meanIntervalNanos()) + " < " + millis(spec.minGapNanos()) + ")");
        }
        if (spec.meanIntervalNanos() > MAX_MEAN_INTERVAL_NANOS) {
            throw new PlanException("mean_interval", "must be at most " + millis(MAX_MEAN_INTERVAL_NANOS)
                    + " (got " + millis(spec.meanIntervalNanos()) + ")");
        }
        if (spec.horizonNanos() <= 0) {
            throw new PlanException("horizon", "must be > 0 (got " + millis(spec.horizonNanos()) + ")");
        }
    }

    private static StallKind nonNull(StallKind kind) {
        return kind == null ? StallKind.BLOCK : kind;
    }

    private static String millis(long nanos) {
        return Nanos.toMillis(nanos) + " ms";
    }

    public StallKind kind() {
        return kind;
    }

    /** The stalls in start order, indexed from 0. */
    public List<PlannedStall> stalls() {
        return stalls;
    }

    /** How long after arming the plan lasts; for an explicit plan, the end of its last stall. */
    public long horizonNanos() {
        return horizonNanos;
    }

    /** The inputs of a seeded plan; empty for an explicit one. */
    public Optional<SeededPlanSpec> seededSpec() {
        return Optional.ofNullable(seededSpec);
    }

    /** Total stalled time over the horizon, from 0 to 1. */
    public double stalledShare() {
        long stalledNanos = 0;
        for (PlannedStall stall : stalls) {
            stalledNanos += stall.durationNanos();
        }
        return stalledNanos / (double) horizonNanos;
    }

    /** The longest single stall, in nanoseconds (0 for an empty plan). */
    public long longestStallNanos() {
        long longest = 0;
        for (PlannedStall stall : stalls) {
            longest = Math.max(longest, stall.durationNanos());
        }
        return longest;
    }
}
