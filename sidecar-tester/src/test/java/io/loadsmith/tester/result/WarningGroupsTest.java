package io.loadsmith.tester.result;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WarningGroupsTest {

    static final String CLOSED = "closed loop: each connection waits for its answer before sending again, so it sends "
            + "nothing while the service stalls and cannot observe coordinated omission; corrected latency equals "
            + "service latency";
    static final String LATE = "the tester itself sent late: p99 2.6 ms between the moment it meant to send and the "
            + "actual send; corrected latency includes that delay, so the tester, not only the service, may be the bottleneck";

    /** A run of an experiment with the given stall state and warnings. */
    static RunResult run(String name, boolean stall, String... warnings) {
        RunResult r = ResultsFixtures.run(name);
        return r.with(c -> {
            c.stall = stall;
            c.spectrum = null;
            c.warnings = List.of(warnings);
            c.requestsLog = null;
            c.hlog = null;
        });
    }

    /** Two rounds of open-546, closed-1 and closed-16 with stalls on and off: 12 runs. */
    static List<RunResult> lab(String lateRun) {
        List<RunResult> runs = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            for (String arm : List.of("open-546", "closed-1", "closed-16")) {
                for (boolean stall : List.of(true, false)) {
                    String name = arm + " r" + round + (stall ? " stall" : " no-stall");
                    List<String> warnings = new ArrayList<>();
                    if (arm.startsWith("closed")) {
                        warnings.add(CLOSED);
                    }
                    if (name.equals(lateRun)) {
                        warnings.add(LATE);
                    }
                    runs.add(run(name, stall, warnings.toArray(String[]::new)));
                }
            }
        }
        return runs;
    }

    @Test
    void one_line_per_distinct_warning_with_the_tester_side_first_and_whole_arms_named() {
        List<WarningGroups.Group> groups = WarningGroups.of(lab("open-546 r1 stall"), List.of("open-546", "closed-1", "closed-16"));

        assertThat(groups).containsExactly(
                new WarningGroups.Group(LATE, true, List.of("open-546 r1 stall"), "open-546 r1 stall"),
                new WarningGroups.Group(CLOSED, false, List.of("closed-1 r1 stall", "closed-1 r1 no-stall",
                        "closed-16 r1 stall", "closed-16 r1 no-stall", "closed-1 r2 stall", "closed-1 r2 no-stall",
                        "closed-16 r2 stall", "closed-16 r2 no-stall"), "closed-1, closed-16 (all 8 runs)"));
    }

    @Test
    void warnings_that_differ_only_in_numbers_are_one_line_with_the_range_of_each_number() {
        List<RunResult> runs = List.of(
                run("paced r1", true, "496 requests waited (at most 1981.0 ms) for the previous answer of their connection"),
                run("paced r2", true, "1,020 requests waited (at most 1981.0 ms) for the previous answer of their connection"),
                run("paced r3", true, "512 requests waited (at most 120.5 ms) for the previous answer of their connection"),
                run("open r1", true));

        List<WarningGroups.Group> groups = WarningGroups.of(runs, List.of("paced", "open"));

        assertThat(groups).containsExactly(new WarningGroups.Group(
                "496\u20131,020 requests waited (at most 120.5\u20131981.0 ms) for the previous answer of their connection",
                true, List.of("paced r1", "paced r2", "paced r3"), "paced (all 3 runs)"));
    }

    @Test
    void a_warning_every_run_carries_applies_to_all_runs() {
        List<RunResult> runs = List.of(run("a", true, "x"), run("b", false, "x"));

        assertThat(WarningGroups.of(runs, List.of())).containsExactly(
                new WarningGroups.Group("x", false, List.of("a", "b"), "all 2 runs"));
    }

    @Test
    void an_arm_in_one_stall_state_is_named_as_arm_slash_state_beside_single_runs() {
        List<RunResult> runs = lab(null);
        List<RunResult> marked = new ArrayList<>();
        for (RunResult r : runs) {
            boolean carries = r.name().startsWith("open-546") && r.stall() || r.name().equals("closed-1 r2 no-stall");
            marked.add(carries ? r.withWarnings(List.of("6 requests were dropped (never answered)")) : r);
        }

        List<WarningGroups.Group> groups = WarningGroups.of(marked, List.of("open-546", "closed-1", "closed-16"));

        assertThat(groups.get(0).appliesTo()).isEqualTo("open-546/stall (all 2), closed-1 r2 no-stall (3 runs)");
        assertThat(groups.get(0).testerSide()).isTrue();
        assertThat(groups.get(1).text()).isEqualTo(CLOSED);
    }

    @Test
    void more_than_six_single_runs_are_cut_to_a_count() {
        List<RunResult> runs = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            runs.add(run("run " + i, true, i < 9 ? "slow" : "fine"));
        }

        assertThat(WarningGroups.of(runs, List.of()).get(0).appliesTo())
                .isEqualTo("run 1, run 2, run 3, run 4, run 5, run 6, and 2 more (8 runs)");
    }
}
