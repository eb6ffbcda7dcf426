package io.loadsmith.tester.agentclient;

import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;

import java.util.List;

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
 * @param replicas          every agent to arm, {@code admin} first (one per replica of the service; see
 *                          {@link Replicas})
 */
public record AgentStalls(AdminApi admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                          StallKind kind, List<AdminApi> replicas) {

    public AgentStalls {
        replicas = replicas == null || replicas.isEmpty() ? List.of(admin) : List.copyOf(replicas);
    }

    /** One agent. */
    public AgentStalls(AdminApi admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                       StallKind kind) {
        this(admin, seed, meanIntervalNanos, durationNanos, minGapNanos, kind, List.of(admin));
    }

    /** True when there is more than one agent to arm. */
    public boolean replicated() {
        return replicas.size() > 1;
    }

    /** The plan's inputs for a counted run of {@code horizonNanos}. */
    public SeededPlanSpec spec(long horizonNanos) {
        return new SeededPlanSpec(seed, meanIntervalNanos, durationNanos, minGapNanos, horizonNanos);
    }
}
