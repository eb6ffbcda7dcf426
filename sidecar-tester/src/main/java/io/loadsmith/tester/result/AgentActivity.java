package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What ran in the service during a run with an agent, so that the two halves of a paired run can be told
 * to differ only in the stall: the plan armed and the agent's pause observer as its {@code GET /health}
 * said at the end of the run (docs/results-json.md).
 *
 * @param plan          {@code seeded}, {@code replay}, or {@code none} (the control half: armed with no stalls)
 * @param windows       the windows the plan held (0 for {@code none})
 * @param observing     the agent runs a pause observer ({@code observe} not {@code off})
 * @param observerMode  {@code armed} (it runs while a plan is armed) or {@code always}; null without an observer
 * @param observerRunning whether it was running at the end of the run
 * @param jfr           its JFR stream: {@code on}, {@code idle}, {@code off}, ...; null without an observer
 * @param sleeperParkMs its sleeper's park; null without an observer or from an agent that does not say
 */
public record AgentActivity(@JsonProperty(required = true) String plan, int windows, boolean observing,
                            String observerMode, boolean observerRunning, String jfr, Long sleeperParkMs) {

    /** What of the service's side differs from {@code other} apart from the stall plan; empty when nothing. */
    public List<String> differencesBesidesThePlan(AgentActivity other) {
        List<String> out = new ArrayList<>();
        if (observing != other.observing || observerRunning != other.observerRunning) {
            out.add("the pause observer " + (observing && observerRunning ? "ran" : "did not run") + " in one, "
                    + (other.observing && other.observerRunning ? "ran" : "did not run") + " in the other");
        }
        if (!Objects.equals(jfr, other.jfr)) {
            out.add("its JFR stream was " + jfr + " in one, " + other.jfr + " in the other");
        }
        if (!Objects.equals(sleeperParkMs, other.sleeperParkMs)) {
            out.add("its sleeper parked " + sleeperParkMs + " ms in one, " + other.sleeperParkMs + " ms in the other");
        }
        return out;
    }

    /** One line: the plan, then the observer, e.g. {@code no stalls; observer on (JFR on, sleeper 1 ms)}. */
    public String describe() {
        String planText = switch (plan) {
            case "none" -> "no stalls";
            case "replay" -> "replay, " + windows + " windows";
            default -> "seeded, " + windows + " windows";
        };
        if (!observing) {
            return planText + "; no pause observer";
        }
        return planText + "; observer " + (observerRunning ? "on" : "not running") + " (JFR " + jfr
                + (sleeperParkMs == null ? "" : ", sleeper " + sleeperParkMs + " ms") + ")";
    }
}
