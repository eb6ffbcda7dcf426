package io.loadsmith.tester.schedule;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The arrival times of an open-model run, as offsets from the run's start: arrival 0, 1, 2, ... in order.
 * Every schedule is a pure function of its inputs and seed (same seed, same schedule, on every JVM): the
 * random stream is {@code new SplittableRandom(seed)}, one {@code nextDouble()} per arrival, transformed
 * with {@code StrictMath}; offsets are computed from the index or summed exactly once, never accumulated
 * from a clock. Per-arrival draws of anything else come from {@link ArrivalStreams}, not from this stream.
 *
 * <p>Not thread-safe: one consumer walks it once.
 */
public interface ArrivalSchedule {

    /** The next arrival's offset from the run's start in nanoseconds, or -1 when the schedule has ended. */
    long nextOffsetNanos();

    /**
     * The index of the arrival last returned by {@link #nextOffsetNanos()} in the whole schedule it comes
     * from: 0, 1, 2, ... for a schedule of its own, the index in the whole schedule for a
     * {@link ScheduleShare}. Undefined before the first arrival.
     */
    long index();

    /**
     * Evenly spaced arrivals: arrival k at {@code round(k * 1e9 / rate)} ns, for offsets below durationNanos.
     */
    static ArrivalSchedule constant(double ratePerSecond, long durationNanos) {
        requireRate(ratePerSecond);
        double gapNanos = 1e9 / ratePerSecond;
        return new ArrivalSchedule() {
            private long k;

            @Override
            public long nextOffsetNanos() {
                long offset = Math.round(k * gapNanos);
                if (offset >= durationNanos) {
                    return -1;
                }
                k++;
                return offset;
            }

            @Override
            public long index() {
                return k - 1;
            }
        };
    }

    /**
     * A Poisson process at ratePerSecond: exponential gaps {@code round(-log1p(-u) * 1e9 / rate)} ns,
     * summed as integers; the first arrival is one gap after the start.
     */
    static ArrivalSchedule poisson(double ratePerSecond, long durationNanos, long seed) {
        requireRate(ratePerSecond);
        double meanGapNanos = 1e9 / ratePerSecond;
        SplittableRandom random = new SplittableRandom(seed);
        return new ArrivalSchedule() {
            private long offset;
            private long count;
            private boolean ended;

            @Override
            public long nextOffsetNanos() {
                if (ended) {
                    return -1;
                }
                offset += Math.round(-StrictMath.log1p(-random.nextDouble()) * meanGapNanos);
                if (offset >= durationNanos) {
                    ended = true;
                    return -1;
                }
                count++;
                return offset;
            }

            @Override
            public long index() {
                return count - 1;
            }
        };
    }

    /**
     * Ramp stages as a non-homogeneous process with a piecewise-linear rate starting at
     * {@code startPerSecond}. Poisson: the exact non-homogeneous Poisson process, by inverting the
     * integrated rate Λ at the points of a unit-rate Poisson stream (arrival k at Λ⁻¹(E₁ + ... + E_k+1)).
     * Constant: arrival k at Λ⁻¹(k), evenly spaced in expected count. The schedule ends with the last stage.
     */
    static ArrivalSchedule stages(double startPerSecond, List<Stage> stages, boolean poisson, long seed) {
        return new RampSchedule(startPerSecond, stages, poisson, seed);
    }

    /**
     * Share {@code share} of {@code shares} of this schedule, the arrivals whose seeded mark is {@code share};
     * see {@link ScheduleShare}.
     */
    default ArrivalSchedule share(int share, int shares, ArrivalStreams marks) {
        return new ScheduleShare(this, share, shares, marks);
    }

    private static void requireRate(double ratePerSecond) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be > 0 (got " + ratePerSecond + ")");
        }
    }
}
