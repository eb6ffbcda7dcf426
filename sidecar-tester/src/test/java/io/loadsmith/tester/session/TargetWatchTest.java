package io.loadsmith.tester.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.transport.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetWatchTest {

    private static final long S = 1_000_000_000L;

    private long nowNanos;
    private final RunControl control = RunControl.withLiveStats();
    private final RunRecorder recorder = RunRecorder.discarding(0, S, 0, step -> "step", false);
    private final TargetWatch watch = new TargetWatch(control.live(), control, 3 * S, () -> nowNanos);

    TargetWatchTest() {
        recorder.live(control.live());
    }

    private void end(Outcome outcome, int count) {
        for (int i = 0; i < count; i++) {
            recorder.expect(nowNanos);
            recorder.completed(nowNanos, nowNanos, nowNanos, nowNanos + 1_000_000, 0, 0,
                    outcome == Outcome.OK ? 200 : 0, outcome);
        }
    }

    private void second() {
        nowNanos += S;
        watch.check();
    }

    @Test
    void a_target_that_answers_to_the_end_is_not_lost() {
        end(Outcome.OK, 10);
        second();
        end(Outcome.REFUSED, 2);
        end(Outcome.OK, 1);
        second();
        assertThat(watch.lost()).isNull();
        assertThat(control.stopRequested()).isFalse();
    }

    @Test
    void refused_and_reset_only_for_give_up_after_stop_the_run_and_say_since_when() {
        end(Outcome.OK, 10);
        second();
        end(Outcome.OK, 10);
        second();
        end(Outcome.RESET, 1);
        end(Outcome.REFUSED, 5);
        second();
        second();
        assertThat(control.stopRequested()).isFalse();
        end(Outcome.REFUSED, 5);
        second();
        assertThat(control.stopRequested()).isTrue();
        assertThat(watch.lost()).isEqualTo(new ResultsFile.TargetLost(2.0, true, 3.0,
                Map.of("refused", 10L, "reset", 1L)));
    }

    @Test
    void any_other_ending_closes_the_span() {
        end(Outcome.REFUSED, 5);
        second();
        second();
        end(Outcome.TIMEOUT, 1);
        second();
        second();
        assertThat(control.stopRequested()).isFalse();
        assertThat(watch.lost()).isNull();
    }

    @Test
    void a_span_still_open_at_the_end_is_lost_without_giving_up() {
        end(Outcome.OK, 3);
        second();
        end(Outcome.REFUSED, 4);
        second();
        assertThat(watch.lost()).isEqualTo(new ResultsFile.TargetLost(1.0, false, 3.0, Map.of("refused", 4L)));
        assertThat(control.stopRequested()).isFalse();
    }
}
