package io.loadsmith.tester.session;

import io.loadsmith.tester.result.ResultsFixtures;
import io.loadsmith.tester.result.RunResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The experiment's console summary: grouped warnings. */
class ExperimentConsoleTest {

    private static final String CLOSED = "closed loop: each connection waits for its answer before sending again";

    @Test
    void the_console_prints_one_line_per_distinct_warning_tester_side_first() {
        List<RunResult> runs = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            runs.add(ResultsFixtures.run("open-546 r" + round + " stall").withWarnings(round == 1
                    ? List.of("the tester itself sent late: p99 2.6 ms between the moment it meant to send and the actual send")
                    : List.of()));
            runs.add(ResultsFixtures.run("closed-1 r" + round + " stall").withWarnings(List.of(CLOSED)));
        }
        StringWriter text = new StringWriter();

        ExperimentAnalysis.printWarnings(new PrintWriter(text, true), runs, List.of("open-546", "closed-1"));

        assertThat(text.toString().lines().toList()).containsExactly("",
                "warnings (one line each, for the runs named; ! = about the tester or its box, not the service):",
                "! open-546 r1 stall: the tester itself sent late: p99 2.6 ms between the moment it meant to send and the actual send",
                "  closed-1 (all 3 runs): " + CLOSED);
    }

    @Test
    void the_console_prints_nothing_when_no_run_has_a_warning() {
        StringWriter text = new StringWriter();

        ExperimentAnalysis.printWarnings(new PrintWriter(text, true), List.of(ResultsFixtures.run("a")), List.of("a"));

        assertThat(text.toString()).isEmpty();
    }
}
