package io.loadsmith.tester.engine;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coordinated-omission scenario on the virtual clock: one FIFO server with a constant 10 ms service
 * time, a 2 s stall from 20 s to 22 s of a 60 s run, an objective of 50 ms.
 *
 * <p>Open loop, constant arrivals every 20 ms (50/s): the 100 arrivals of the stall (20.00 s ... 21.98 s)
 * are held at the server's entry until 22.00 s and then served one by one: arrival j ends at
 * 22.00 + 0.01·(j+1) s, a latency of 2.01 − 0.01·j s (2.01 s down to 1.02 s: all 100 above 50 ms). They
 * leave a backlog: arrival m after the stall (at 22.00 + 0.02·m s) ends at 23.01 + 0.01·m s while
 * m < 100, a latency of 1.01 − 0.01·m s, above 50 ms for m = 0 ... 95 (96 requests; m = 96 is exactly
 * 50 ms, not above). Total above the objective: 196, for both latencies (the simulated transport sends on
 * time, so service = corrected).
 *
 * <p>Closed loop, one connection: sends back to back every 10 ms; the request sent at 19.99 s would end at
 * 20.00 s, inside the window, so it ends at 22.00 s (2.01 s); the next is sent at 22.00 s. 2,000 requests
 * before the stall, 3,800 after it (22.00 s ... 59.99 s): 5,800, one of them above the objective.
 */
class CoordinatedOmissionTest {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;
    static final Simulation.SimulatedTarget TARGET = new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS),
            StallPlan.explicit(List.of(new PlannedStall(0, 20 * S, 2 * S)), StallKind.BLOCK));

    @TempDir
    Path dir;

    static TesterSpec openSpec() {
        return TesterSpec.open(50).arrivals(TesterSpec.Arrivals.CONSTANT).duration(60 * S)
                .objective(50 * MS).startDelay(0).seed(7);
    }

    static TesterSpec closedSpec() {
        return TesterSpec.closed(1).duration(60 * S).objective(50 * MS).startDelay(0).seed(7);
    }

    static List<RequestRecord> log(Path runDir) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(runDir.resolve(RequestLog.FILE_NAME))) {
            reader.forEachRemaining(records::add);
        }
        return records;
    }

    static long sentWithin(List<RequestRecord> records, long fromNanos, long toNanos) {
        return records.stream().filter(r -> r.sentNanos() >= fromNanos && r.sentNanos() < toNanos).count();
    }

    @Test
    void open_loop_counts_every_request_the_stall_delayed_to_the_request() throws IOException {
        RunResult open = Simulation.run(openSpec(), TARGET, null, dir.resolve("open"));

        assertThat(open.counts()).isEqualTo(new RunResult.Counts(3000, 3000, 3000, 0, 0, 0, 0));
        CountsAddUp.check(open);
        assertThat(open.aboveObjective()).isEqualTo(new RunResult.AboveObjective(50.0, 196, 196));
        assertThat(open.latencyMs().corrected().p99()).isGreaterThan(1500.0);
        // the 31st largest corrected latency: held arrival j = 30, 2.01 − 0.30 = 1.71 s (3 significant digits)
        assertThat(open.latencyMs().corrected().p99()).isBetween(1710.0, 1711.0);
        assertThat(open.latencyMs().corrected().max()).isBetween(2010.0, 2011.0);
        assertThat(open.latencyMs().estimated()).isNull();
    }

    @Test
    void closed_loop_service_p99_stays_at_the_service_time_and_one_request_is_above_the_objective() throws IOException {
        RunResult closed = Simulation.run(closedSpec(), TARGET, null, dir.resolve("closed"));

        assertThat(closed.counts()).isEqualTo(new RunResult.Counts(5800, 5800, 5800, 0, 0, 0, 0));
        CountsAddUp.check(closed);
        assertThat(closed.latencyMs().service().p99()).isBetween(10.0, 10.01);
        assertThat(closed.latencyMs().corrected()).isEqualTo(closed.latencyMs().service());
        assertThat(closed.aboveObjective()).isEqualTo(new RunResult.AboveObjective(50.0, 1, 1));
        assertThat(closed.latencyMs().service().max()).isBetween(2010.0, 2011.0);
        assertThat(closed.warnings()).anySatisfy(w -> assertThat(w).contains("cannot observe coordinated omission"));
    }

    @Test
    void closed_loop_sends_nothing_during_a_stall() throws IOException {
        Simulation.run(closedSpec(), TARGET, null, dir.resolve("closed"));
        List<RequestRecord> records = log(dir.resolve("closed"));

        assertThat(records).hasSize(5800);
        assertThat(sentWithin(records, 20 * S, 22 * S)).isZero();
        assertThat(sentWithin(records, 18 * S, 20 * S)).isEqualTo(200);
        assertThat(records).allSatisfy(r -> assertThat(r.correctedNanos()).isEqualTo(r.serviceNanos()));
    }

    @Test
    void open_loop_sends_rate_times_stall_length_during_a_stall() throws IOException {
        Simulation.run(openSpec(), TARGET, null, dir.resolve("open"));
        List<RequestRecord> records = log(dir.resolve("open"));

        assertThat(sentWithin(records, 20 * S, 22 * S)).isEqualTo(50 * 2);
        assertThat(records).allSatisfy(r -> assertThat(r.sentNanos()).isEqualTo(r.intendedNanos()));
    }

    @Test
    void open_loop_latencies_match_the_fifo_derivation_request_by_request() throws IOException {
        Simulation.run(openSpec(), TARGET, null, dir.resolve("open"));
        List<RequestRecord> records = log(dir.resolve("open"));

        for (RequestRecord r : records) {
            long arrival = r.intendedNanos();
            long expected;
            if (arrival >= 20 * S && arrival < 22 * S) {
                long j = (arrival - 20 * S) / (20 * MS);
                expected = 2010 * MS - j * 10 * MS;
            } else if (arrival >= 22 * S && arrival < 24 * S) {
                long m = (arrival - 22 * S) / (20 * MS);
                expected = 1010 * MS - m * 10 * MS;
            } else {
                expected = 10 * MS;
            }
            assertThat(r.correctedNanos()).as("arrival at %d ns", arrival).isEqualTo(expected);
        }
    }

    @Test
    void poisson_open_loop_sends_rate_times_stall_length_within_poisson_noise() throws IOException {
        TesterSpec poisson = TesterSpec.open(200).duration(60 * S).objective(50 * MS).startDelay(0).seed(11);
        Simulation.run(poisson, TARGET, null, dir.resolve("poisson"));
        List<RequestRecord> records = log(dir.resolve("poisson"));

        // 400 expected, standard deviation 20: four of them either way
        assertThat(sentWithin(records, 20 * S, 22 * S)).isBetween(320L, 480L);
        assertThat(records).allSatisfy(r -> assertThat(r.sentNanos()).isEqualTo(r.intendedNanos()));
    }
}
