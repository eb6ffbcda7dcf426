package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;

/** A user stop (Ctrl-C) at 5 s of a 30 s run, on the virtual clock: what is counted, to the request. */
class RunControlTest {

    @TempDir
    Path dir;

    /** Runs spec on servers FIFO servers of 10 ms; a stall window may hold the servers; stops 5 s after the start. */
    private RunResult stoppedAtFiveSeconds(TesterSpec spec, int servers, long stallFromNanos, long stallToNanos)
            throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, servers, ServiceTime.constant(10 * MS), 1);
        if (stallToNanos > stallFromNanos) {
            server.addWindow(stallFromNanos, stallToNanos);
        }
        RunControl control = new RunControl();
        RunListener stopAtFive = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                scheduler.at(startNanos + 5 * S, control::stop);
            }
        };
        RunResult result = LoadRun.run(spec.duration(30 * S).grace(S).startDelay(0), scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir,
                LoadRun.RunOptions.defaults().withListener(stopAtFive).withControl(control));
        assertThat(control.finished()).isTrue();
        return result;
    }

    /**
     * Ten arrivals a second at 0.0, 0.1 ... s; a stall from 4.45 s holds the arrivals of 4.5 ... 4.9 s. The
     * stop at 5 s: the arrival of 5.0 s and later are never scheduled, the five held requests get the 1 s
     * grace and are cancelled at 6 s as dropped (after send); the 45 others were answered.
     */
    @Test
    void an_open_run_stopped_at_5_s_counts_what_was_intended_before_and_drops_the_unanswered_after_the_grace()
            throws IOException {
        RunResult result = stoppedAtFiveSeconds(TesterSpec.open(10).arrivals(TesterSpec.Arrivals.CONSTANT), 1,
                4450 * MS, 100 * S);
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(50, 45, 45, 0, 5, 0, 5));
        CountsAddUp.check(result);
        assertThat(result.interrupted()).isTrue();
        assertThat(result.durationMs()).isEqualTo(5000.0);
        assertThat(result.endNs()).isEqualTo(6 * S);
        assertThat(result.warnings()).contains(
                "stopped early by the user after 5.0 s of 30.0 s; the counts and latencies cover what was "
                        + "scheduled before the stop");
        assertThat(records).hasSize(50);
        assertThat(records).extracting(RequestRecord::intendedNanos).allMatch(t -> t < 5 * S);
        assertThat(records).filteredOn(r -> r.outcome() == Outcome.CANCELLED)
                .extracting(RequestRecord::intendedNanos)
                .containsExactlyInAnyOrder(4500 * MS, 4600 * MS, 4700 * MS, 4800 * MS, 4900 * MS);
        assertThat(result.timeline()).hasSize(5);
    }

    /** Two connections on two 10 ms servers send at 0, 10 ... 4990 ms; the answers of 5.0 s start nothing. */
    @Test
    void a_closed_run_stopped_at_5_s_starts_no_request_after_the_stop() throws IOException {
        RunResult result = stoppedAtFiveSeconds(TesterSpec.closed(2), 2, 0, 0);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(1000, 1000, 1000, 0, 0, 0, 0));
        CountsAddUp.check(result);
        assertThat(result.interrupted()).isTrue();
        assertThat(result.endNs()).isEqualTo(5 * S);
        assertThat(result.achievedRate()).isEqualTo(200.0);
    }

    /**
     * Two paced connections every 100 ms (offsets 0 and 50 ms): 50 iterations each before 5 s; the next
     * iterations (5.0 and 5.05 s), already waiting for their time, are withdrawn and never scheduled.
     */
    @Test
    void a_paced_run_stopped_at_5_s_withdraws_the_iterations_waiting_for_their_time() throws IOException {
        RunResult result = stoppedAtFiveSeconds(TesterSpec.paced(2, 100 * MS), 2, 0, 0);
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(100, 100, 100, 0, 0, 0, 0));
        CountsAddUp.check(result);
        assertThat(result.interrupted()).isTrue();
        assertThat(records).extracting(RequestRecord::intendedNanos).last().isEqualTo(4950 * MS);
        assertThat(result.endNs()).isEqualTo(5 * S);
    }

    /** Paced skip with a stall: the skipped iterations before the stop count, none after it. */
    @Test
    void a_paced_skip_run_stopped_inside_a_stall_counts_skipped_only_before_the_stop() throws IOException {
        // one connection every 100 ms; the stall 4.0 ... 4.75 s holds iteration 40 (4.0 s) until 4.76 s:
        // 41 ... 47 (4.1 ... 4.7 s) are skipped, 48 and 49 (4.8, 4.9 s) are sent, 50 (5.0 s) is withdrawn
        RunResult result = stoppedAtFiveSeconds(TesterSpec.paced(1, 100 * MS).onLate(TesterSpec.OnLate.SKIP), 1,
                4000 * MS, 4750 * MS);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(50, 43, 43, 0, 0, 7, 0));
        CountsAddUp.check(result);
    }

    @Test
    void a_stop_before_the_run_begins_gives_an_empty_interrupted_result() throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(10 * MS), 1);
        RunControl control = new RunControl();
        control.stop();
        RunResult result = LoadRun.run(TesterSpec.open(10).duration(30 * S).startDelay(0), scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir, LoadRun.RunOptions.defaults().withControl(control));

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(0, 0, 0, 0, 0, 0, 0));
        assertThat(result.interrupted()).isTrue();
        assertThat(result.achievedRate()).isZero();
    }

    @Test
    void a_run_that_is_not_stopped_is_not_interrupted() throws IOException {
        RunResult result = Simulation.run(TesterSpec.open(10).duration(2 * S), CoordinatedOmissionTest.TARGET,
                null, dir);

        assertThat(result.interrupted()).isFalse();
        assertThat(result.warnings()).noneMatch(w -> w.startsWith("stopped early"));
        CountsAddUp.check(result);
    }
}
