package io.loadsmith.tester.agentclient;

import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;

/**
 * An agent to arm at the start of each counted run, and the seeded plan to arm it with. The horizon is
 * the counted run's length, so every planned stall ends inside it.
 *
 * @param admin             the agent's admin API
 * @param seed              the plan's seed (the same in every run of a round)
 * @param meanIntervalNanos mean start-to-start gap
 * @param durationNanos     length of every stall
 * @param minGapNanos       shortest start-to-start gap
 * @param kind              block or spin
 */
public record AgentStalls(AdminClient admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                          StallKind kind) {

    /** The plan's inputs for a counted run of {@code horizonNanos}. */
    public SeededPlanSpec spec(long horizonNanos) {
        return new SeededPlanSpec(seed, meanIntervalNanos, durationNanos, minGapNanos, horizonNanos);
    }
}
