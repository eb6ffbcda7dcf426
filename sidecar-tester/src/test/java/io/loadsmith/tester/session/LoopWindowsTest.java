package io.loadsmith.tester.session;

import io.loadsmith.tester.align.TesterPauseMeetings.Span;
import io.loadsmith.tester.align.TesterPauseMeetings;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The send loop's own pauses, on a virtual clock whose loop pauses from 500.5 ms to 505.5 ms of a constant
 * open run at 1000/s (arrival k due at k ms, each answered 0.1 ms after its send).
 */
class LoopWindowsTest {

    private static final long MS = 1_000_000L;
    private static final long PAUSE_START = 500_500_000L;
    private static final long PAUSE_END = 505_500_000L;

    @TempDir
    Path dir;

    private RunResult runWithAPausedLoop(LoopWindows loop, TesterSpec spec) throws Exception {
        VirtualScheduler scheduler = new VirtualScheduler();
        scheduler.pause(PAUSE_START, PAUSE_END);
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(100_000), 1);
        return LoadRun.run(spec, scheduler, server, RequestSource.get(URI.create("http://127.0.0.1:1/")), dir,
                LoadRun.RunOptions.defaults().withListener(loop.around(RunListener.NONE)));
    }

    private static TesterSpec constantOpen() {
        return TesterSpec.open(1000).arrivals(TesterSpec.Arrivals.CONSTANT).duration(1000 * MS).grace(1000 * MS)
                .startDelay(0);
    }

    @Test
    void sends_due_while_the_loop_paused_make_one_window_from_the_first_more_than_1_ms_late_to_the_loop_s_return()
            throws Exception {
        LoopWindows loop = new LoopWindows();
        RunResult result = runWithAPausedLoop(loop, constantOpen());

        // due at 501..505 ms, released at 505.5 ms: 4.5, 3.5, 2.5, 1.5 ms late are reported, 0.5 ms is not
        assertThat(result.startNs()).isZero();
        assertThat(loop.windows()).containsExactly(new Span(501 * MS, PAUSE_END));
    }

    @Test
    void the_requests_due_in_the_loop_s_pause_meet_it_and_those_above_1_ms_spent_most_of_their_latency_in_it()
            throws Exception {
        LoopWindows loop = new LoopWindows();
        runWithAPausedLoop(loop, constantOpen());

        TesterPauseMeetings meetings = TesterPauseMeetings.count(dir.resolve(RequestLog.FILE_NAME), loop.windows(),
                TesterPauseMeetings.DEFAULT_MIN_PAUSE_NANOS, MS);

        // 501..505 ms are intended inside it; corrected 4.6, 3.6, 2.6, 1.6 (and 0.6) ms, each mostly inside it
        assertThat(meetings).isEqualTo(new TesterPauseMeetings(5, 4, 4));
        assertThat(meetings.material()).isTrue();
    }

    @Test
    void a_closed_loop_reports_no_late_send_its_sends_follow_its_answers_and_have_no_timer() throws Exception {
        LoopWindows loop = new LoopWindows();
        runWithAPausedLoop(loop, TesterSpec.closed(1).duration(1000 * MS).grace(1000 * MS).startDelay(0));

        assertThat(loop.windows()).isEmpty();
    }

    @Test
    void late_sends_that_overlap_or_touch_are_one_window_and_separate_ones_stay_apart() {
        LoopWindows loop = new LoopWindows();
        loop.sendLate(10 * MS, 14 * MS);
        loop.sendLate(11 * MS, 14 * MS);
        loop.sendLate(14 * MS, 16 * MS);
        loop.sendLate(30 * MS, 32 * MS);
        loop.sendLate(5 * MS, 7 * MS); // another lane, reported later

        assertThat(loop.windows()).isEqualTo(List.of(new Span(5 * MS, 7 * MS), new Span(10 * MS, 16 * MS),
                new Span(30 * MS, 32 * MS)));
    }
}
