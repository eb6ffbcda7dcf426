package io.loadsmith.tester.agentclient;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.profile.ReplayPlan;

import java.util.List;

/**
 * An agent to arm at the start of each counted run, and the plan to arm it with: seeded (the horizon is the
 * counted run's length, so every planned stall ends inside it), or a pause profile's replay.
 *
 * @param admin             the agent's admin API
 * @param seed              the plan's seed (the same in every run of a round); 0 for a replay
 * @param meanIntervalNanos mean start-to-start gap; 0 for a replay
 * @param durationNanos     length of every stall; for a replay, of its longest window
 * @param minGapNanos       shortest start-to-start gap; 0 for a replay
 * @param kind              block or spin
 * @param replicas          every agent to arm, {@code admin} first (one per replica of the service; see
 *                          {@link Replicas})
 * @param replay            the replayed profile's plan; null for a seeded plan
 * @param control           true for the control half of a paired run: the agents are armed with a plan of no
 *                          stalls over the same horizon ({@link #asControl()}), so that their pause observers run
 *                          over the same span as in the stalled half and nothing is held
 */
public record AgentStalls(AdminApi admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                          StallKind kind, List<AdminApi> replicas, ReplayPlan replay, boolean control) {

    /** How far from expected a replay's arm may reach the agent before it is armed again: 1 ms. */
    public static final long ARM_TOLERANCE_NANOS = 1_000_000L;
    /** How many times a replay is armed at most, while its arm reaches the agent off the time expected. */
    static final int ARM_ATTEMPTS = 5;

    public AgentStalls {
        replicas = replicas == null || replicas.isEmpty() ? List.of(admin) : List.copyOf(replicas);
    }

    /** A seeded plan on every agent of {@code replicas}. */
    public AgentStalls(AdminApi admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                       StallKind kind, List<AdminApi> replicas) {
        this(admin, seed, meanIntervalNanos, durationNanos, minGapNanos, kind, replicas, null, false);
    }

    /** One agent, a seeded plan. */
    public AgentStalls(AdminApi admin, long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                       StallKind kind) {
        this(admin, seed, meanIntervalNanos, durationNanos, minGapNanos, kind, List.of(admin), null, false);
    }

    /** The replay of a pause profile on every agent of {@code replicas}, the first one first. */
    public static AgentStalls replayed(ReplayPlan replay, List<AdminApi> replicas) {
        return new AgentStalls(replicas.get(0), 0, 0, replay.plan().longestStallNanos(), 0, replay.plan().kind(),
                replicas, replay, false);
    }

    /**
     * The control half of this: the same agents, each armed at the counted start as this would be, with a plan
     * of no stalls over the counted run (docs/experiments.md, "Both halves observed").
     */
    public AgentStalls asControl() {
        return new AgentStalls(admin, seed, meanIntervalNanos, durationNanos, minGapNanos, kind, replicas, replay, true);
    }

    /** True when there is more than one agent to arm. */
    public boolean replicated() {
        return replicas.size() > 1;
    }

    /**
     * The seeded plan's inputs for a counted run of {@code horizonNanos}.
     *
     * @throws IllegalStateException for a replay, which has no seed
     */
    public SeededPlanSpec spec(long horizonNanos) {
        if (replay != null) {
            throw new IllegalStateException("a replayed plan has no seed");
        }
        return new SeededPlanSpec(seed, meanIntervalNanos, durationNanos, minGapNanos, horizonNanos);
    }

    /** The plan to arm for a counted run of {@code horizonNanos}: the seeded one, the replay's, or none (a control). */
    public StallPlan plan(long horizonNanos) {
        if (control) {
            return StallPlan.explicit(List.of(), kind, horizonNanos);
        }
        return replay != null ? replay.plan() : StallPlan.seeded(spec(horizonNanos), kind);
    }

    /**
     * Arms {@code agent} for a counted run of {@code horizonNanos} that starts at {@code startNanos} on
     * {@code clock} (the tester's), a little after this call. A seeded plan counts from the arming, as
     * always. A replay's windows count from the counted start: they are moved by the time left until it
     * less the time the arm is expected to take to reach the agent (first half the clock probe's round trip).
     * While an arm reaches the agent more than {@link #ARM_TOLERANCE_NANOS} earlier or later than expected (a
     * cold agent's first arms can take several to tens of milliseconds), it is armed again, up to
     * {@link #ARM_ATTEMPTS} times in all, each time expecting what the arm before took; each arm replaces the
     * one before, and none is made once a window of the last one has begun.
     *
     * @param offset the agent's clock offset, to put its moment of arming on the tester's clock
     */
    public AdminClient.Armed arm(AdminApi agent, ClockOffset offset, long horizonNanos, long startNanos, Clock clock,
                                 String runId) throws AdminException {
        if (replay == null || control) {
            return agent.arm(plan(horizonNanos), runId);
        }
        long expectedNanos = offset.uncertaintyNanos(); // the arm's way to the agent: half the probe's round trip
        AdminClient.Armed armed = null;
        for (int attempt = 0; attempt < ARM_ATTEMPTS; attempt++) {
            long sentNanos = clock.nanoTime();
            armed = agent.arm(replay.planFrom(Math.max(0, startNanos - sentNanos - expectedNanos)), runId);
            long armedAtNanos = offset.toTesterNanos(armed.armedAtNanos());
            boolean begun = clock.nanoTime() + ARM_TOLERANCE_NANOS >= armedAtNanos + armed.stalls().get(0).offsetNanos();
            long tookNanos = armedAtNanos - sentNanos;
            if (Math.abs(tookNanos - expectedNanos) <= ARM_TOLERANCE_NANOS || begun) {
                break;
            }
            expectedNanos = tookNanos; // the next arm is expected to take as long as this one
        }
        return armed;
    }
}
