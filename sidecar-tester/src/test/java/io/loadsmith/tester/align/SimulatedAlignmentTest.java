package io.loadsmith.tester.align;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real engine on the virtual clock against the simulated server, stalled by the real seeded plan:
 * every count is known exactly.
 */
class SimulatedAlignmentTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long DURATION = 20 * S;
    private static final StallPlan PLAN = StallPlan.seeded(new SeededPlanSpec(7, 2 * S, 100 * MS, 500 * MS, DURATION),
            StallKind.BLOCK);

    @TempDir
    Path dir;

    /** Runs spec against a 0.5 ms constant-time server stalled by PLAN from the counted start; aligns it. */
    private RunAlignment run(TesterSpec spec) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(MS / 2), 3);
        List<StallWindow> windows = new ArrayList<>();
        Path runDir = dir.resolve(spec.name());
        RunListener arming = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                server.arm(PLAN, startNanos);
                for (PlannedStall stall : PLAN.stalls()) {
                    windows.add(new StallWindow(stall.index(), startNanos + stall.offsetNanos(),
                            startNanos + stall.endOffsetNanos(), 0));
                }
            }
        };
        LoadRun.run(spec.duration(DURATION).seed(11).grace(S), scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), runDir, LoadRun.RunOptions.defaults().withListener(arming));
        return StallAlignment.alignLog(runDir.resolve(RequestLog.FILE_NAME), windows, DURATION,
                AlignedBins.forStall(100 * MS), 500, 1);
    }

    @Test
    void the_plan_holds_several_stalls_inside_the_run() {
        assertThat(PLAN.stalls()).hasSizeGreaterThan(5);
    }

    @Test
    void a_closed_loop_sends_nothing_inside_any_stall_and_has_one_request_in_flight_at_each_start() throws IOException {
        RunAlignment closed = run(TesterSpec.closed(1).name("closed"));

        assertThat(closed.stalls()).hasSize(PLAN.stalls().size()).allMatch(StallCount::met);
        assertThat(closed.stalls()).allSatisfy(stall -> {
            assertThat(stall.sentDuring()).isZero();
            assertThat(stall.intendedDuring()).isZero();
            assertThat(stall.inFlightAtStart()).isEqualTo(1);
            assertThat(stall.overlapping()).isEqualTo(1);
        });
        assertThat(closed.summary().sentDuringTotal()).isZero();
        assertThat(closed.summary().overlappingRequests()).isEqualTo(PLAN.stalls().size());
        assertThat(closed.summary().p99CanSeeStalls()).isFalse();
    }

    @Test
    void a_closed_loop_line_falls_to_zero_for_exactly_the_stall() throws IOException {
        double[] perBin = run(TesterSpec.closed(1).name("closed")).sendsPerBin();

        // bins 20..39 are the stall's 100 ms (5 ms bins from -100 ms); a 0.5 ms server answers 10 per bin outside
        for (int bin = 20; bin < 40; bin++) {
            assertThat(perBin[bin]).as("bin %d", bin).isZero();
        }
        assertThat(perBin[10]).isEqualTo(10.0);
        assertThat(perBin[50]).isEqualTo(10.0);
    }

    @Test
    void an_open_loop_at_a_constant_rate_sends_rate_times_duration_inside_every_stall() throws IOException {
        RunAlignment open = run(TesterSpec.open(1000).arrivals(TesterSpec.Arrivals.CONSTANT).name("open"));

        // 1000/s: one arrival every 1 ms exactly, so every 100 ms window holds 100 of them, every 5 ms bin 5
        assertThat(open.stalls()).allSatisfy(stall -> {
            assertThat(stall.sentDuring()).isEqualTo(100);
            assertThat(stall.intendedDuring()).isEqualTo(100);
        });
        assertThat(open.summary().sentDuringTotal()).isEqualTo(100L * PLAN.stalls().size());
        assertThat(open.summary().p99CanSeeStalls()).isTrue();
        assertThat(open.sendsPerBin()).containsOnly(5.0);   // the open loop's line does not move
    }

    @Test
    void the_scatter_of_an_open_loop_shows_requests_sent_early_in_a_stall_waiting_longest() throws IOException {
        RunAlignment open = run(TesterSpec.open(1000).arrivals(TesterSpec.Arrivals.CONSTANT).name("open"));

        List<ScatterPoint> inStall = open.scatter().stream()
                .filter(p -> p.offsetNanos() >= 0 && p.offsetNanos() < MS).toList();
        assertThat(inStall).isNotEmpty();
        // the first send of a stall is held to the window's end and served first: 100 ms - offset + 0.5 ms
        assertThat(inStall).allSatisfy(p -> assertThat(p.correctedNanos()).isEqualTo(100 * MS - p.offsetNanos() + MS / 2));
    }
}
