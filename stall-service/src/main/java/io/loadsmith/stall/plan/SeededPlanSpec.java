package io.loadsmith.stall.plan;

/**
 * The inputs of a seeded stall plan; see {@link StallPlan#seeded(SeededPlanSpec, StallKind)} and
 * docs/stall-plan.md for the algorithm.
 *
 * @param seed              seed of {@code java.util.SplittableRandom}
 * @param meanIntervalNanos mean start-to-start gap (>= minGapNanos)
 * @param durationNanos     length of every stall (> 0)
 * @param minGapNanos       smallest start-to-start gap (>= durationNanos)
 * @param horizonNanos      stalls are planned only while they end within this time after arming (> 0)
 */
public record SeededPlanSpec(long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                             long horizonNanos) {
}
