package io.loadsmith.tester.session;

import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.engine.RunControl;

/**
 * What a {@link StalledRun} is armed with, how it is stopped, and whether it observes the tester's own pauses.
 *
 * @param stalls  the agents to arm and their plan; null for a run without stalls
 * @param bins    the geometry of the stall-aligned bins (shared by every run that is drawn together)
 * @param control stops the run early, from any thread
 * @param shared  the stalls a shard of a split load shares ({@link SharedStalls}); null: not shared
 * @param testerPauses whether a real run observes the tester's own pauses ({@code load.tester_pauses})
 */
public record StallOptions(AgentStalls stalls, AlignedBins bins, RunControl control, SharedStalls shared,
                           boolean testerPauses) {

    /** A run without stalls. */
    public static StallOptions unstalled() {
        return new StallOptions(null, null, new RunControl(), null, true);
    }

    /** A run armed with {@code stalls} (null: without stalls), aligned on bins of their length. */
    public static StallOptions stalled(AgentStalls stalls) {
        return stalled(stalls, stalls == null ? null : AlignedBins.forStall(stalls.durationNanos()));
    }

    /** A run armed with {@code stalls} (null: without stalls), aligned on {@code bins}. */
    public static StallOptions stalled(AgentStalls stalls, AlignedBins bins) {
        return new StallOptions(stalls, bins, new RunControl(), null, true);
    }

    public StallOptions withControl(RunControl value) {
        return new StallOptions(stalls, bins, value, shared, testerPauses);
    }

    public StallOptions withShared(SharedStalls value) {
        return new StallOptions(stalls, bins, control, value, testerPauses);
    }

    /** Whether a real run observes the tester's own pauses ({@code tester_pauses}, docs/pauses.md); on by default. */
    public StallOptions withTesterPauses(boolean value) {
        return new StallOptions(stalls, bins, control, shared, value);
    }
}
