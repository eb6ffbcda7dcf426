package io.loadsmith.tester.session;

import io.loadsmith.tester.result.AgentActivity;
import io.loadsmith.tester.result.RunResult;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two halves of a paired experiment, stall on and off, as the service saw them: a paired verdict means
 * something only when they differ in the stall alone, so both are armed (the control with a plan of no
 * stalls) and what ran in the service in each ({@link AgentActivity}) is compared round by round
 * and printed per arm (docs/experiments.md, "Both halves observed").
 */
final class ExperimentHalves {

    private ExperimentHalves() {
    }

    /**
     * The warning for a run whose twin (the same arm and round in the other stall state) already ran, when
     * the two differ in what ran in the service apart from the stall plan; none when they do not, or when
     * the twin has not run yet.
     */
    static List<String> warnings(RunResult run, RunResult twin) {
        if (twin == null) {
            return List.of();
        }
        AgentActivity mine = run.agentActivity();
        AgentActivity theirs = twin.agentActivity();
        if (mine == null && theirs == null) {
            return List.of();
        }
        List<String> differences = mine == null || theirs == null
                ? List.of("an agent was armed in one half only")
                : mine.differencesBesidesThePlan(theirs);
        if (differences.isEmpty()) {
            return List.of();
        }
        return List.of("its two halves (stall on, off) differ besides the stall, so their comparison measures that"
                + " too: " + String.join("; ", differences) + " (stall " + (run.stall() ? "on" : "off") + ": "
                + describe(mine) + "; stall " + (twin.stall() ? "on" : "off") + ": " + describe(theirs) + ")");
    }

    /**
     * Per arm, what ran in the service in each half: one line per arm and stall state, the distinct
     * descriptions over its rounds. Nothing when no run had an agent.
     */
    static void print(PrintWriter out, Map<String, Map<Boolean, Map<Integer, RunResult>>> results) {
        boolean any = results.values().stream().flatMap(m -> m.values().stream()).flatMap(m -> m.values().stream())
                .anyMatch(r -> r.agentActivity() != null);
        if (!any) {
            return;
        }
        out.println();
        out.println("in the service (the plan armed; the agent's pause observer at the end of each run):");
        for (var arm : results.entrySet()) {
            for (var state : arm.getValue().entrySet()) {
                Set<String> seen = new LinkedHashSet<>();
                state.getValue().values().forEach(r -> seen.add(describe(r.agentActivity())));
                out.printf(java.util.Locale.ROOT, "  %-16s stall %-3s %s%n", arm.getKey(), state.getKey() ? "on" : "off",
                        String.join(" | ", new ArrayList<>(seen)));
            }
        }
    }

    private static String describe(AgentActivity activity) {
        return activity == null ? "no agent" : activity.describe();
    }
}
