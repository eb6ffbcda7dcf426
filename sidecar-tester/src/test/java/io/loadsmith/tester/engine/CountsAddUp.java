package io.loadsmith.tester.engine;

import io.loadsmith.tester.result.RunResult;

import static org.assertj.core.api.Assertions.assertThat;

/** The two identities of the counts (docs/results-json.md), for the run and for every step. */
public final class CountsAddUp {

    private CountsAddUp() {
    }

    /** scheduled = sent + dropped + skipped; sent = completed + errors; dropped after send is part of dropped. */
    public static void check(RunResult result) {
        RunResult.Counts c = result.counts();
        assertThat(c.sent() + c.dropped() + c.skipped()).as("sent + dropped + skipped").isEqualTo(c.scheduled());
        assertThat(c.completed() + c.errors()).as("completed + errors").isEqualTo(c.sent());
        assertThat(c.droppedAfterSend()).as("dropped after send").isBetween(0L, c.dropped());
        for (RunResult.StepResult step : result.steps()) {
            assertThat(step.counts().completed() + step.counts().errors()).as("step %s completed + errors",
                    step.name()).isEqualTo(step.counts().sent());
        }
    }
}
