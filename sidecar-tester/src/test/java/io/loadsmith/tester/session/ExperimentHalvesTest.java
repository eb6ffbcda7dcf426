package io.loadsmith.tester.session;

import io.loadsmith.tester.result.AgentActivity;
import io.loadsmith.tester.result.RunResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExperimentHalvesTest {

    private static final AgentActivity SEEDED = new AgentActivity("seeded", 7, true, "armed", true, "on", 1L);
    private static final AgentActivity CONTROL = new AgentActivity("none", 0, true, "armed", true, "on", 1L);
    private static final AgentActivity UNOBSERVED = new AgentActivity("none", 0, true, "armed", false, "idle", 1L);

    private static RunResult run(boolean stall, AgentActivity activity) {
        return RunResult.builder().build().with(r -> {
            r.name = stall ? "a r1 stall" : "a r1 no-stall";
            r.stall = stall;
            r.agentActivity = activity;
        });
    }

    @Test
    void halves_that_differ_only_in_the_plan_give_no_warning() {
        assertThat(ExperimentHalves.warnings(run(false, CONTROL), run(true, SEEDED))).isEmpty();
        assertThat(ExperimentHalves.warnings(run(false, null), run(true, null))).isEmpty();
        assertThat(ExperimentHalves.warnings(run(true, SEEDED), null)).as("the twin has not run yet").isEmpty();
    }

    @Test
    void a_control_half_whose_observer_did_not_run_is_warned_about_naming_both_halves() {
        assertThat(ExperimentHalves.warnings(run(false, UNOBSERVED), run(true, SEEDED))).containsExactly(
                "its two halves (stall on, off) differ besides the stall, so their comparison measures that too: "
                        + "the pause observer did not run in one, ran in the other; its JFR stream was idle in one, on in the other "
                        + "(stall off: no stalls; observer not running (JFR idle, sleeper 1 ms); "
                        + "stall on: seeded, 7 windows; observer on (JFR on, sleeper 1 ms))");
    }

    @Test
    void an_agent_armed_in_one_half_only_is_warned_about() {
        assertThat(ExperimentHalves.warnings(run(false, null), run(true, SEEDED))).singleElement().asString()
                .contains("an agent was armed in one half only").contains("stall off: no agent");
    }

    @Test
    void a_different_sleeper_park_is_a_difference() {
        AgentActivity slower = new AgentActivity("none", 0, true, "armed", true, "on", 5L);
        assertThat(SEEDED.differencesBesidesThePlan(slower)).containsExactly("its sleeper parked 1 ms in one, 5 ms in the other");
    }
}
