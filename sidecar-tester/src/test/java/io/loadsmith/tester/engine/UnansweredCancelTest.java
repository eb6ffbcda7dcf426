package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transport that ignores {@link Transport#cancelAll()}: the requests still in flight at the end of the
 * grace are never completed, so the phase's backstop (1 s after the cancel) drops them. Two 10 ms servers;
 * a stall from 1 s to 100 s holds every request that reaches them from 1 s on; 2 s runs with a 1 s grace:
 * the cancel at 3 s does nothing, the backstop at 4 s drops the held requests and the run ends.
 */
class UnansweredCancelTest {

    @TempDir
    Path dir;

    /** Sends through a simulated server; cancelAll does nothing, so cancelled requests never complete. */
    private static final class DeafToCancel implements Transport {
        private final SimulatedServer server;

        DeafToCancel(SimulatedServer server) {
            this.server = server;
        }

        @Override
        public void send(RequestSpec request, Exchange exchange) {
            server.send(request, exchange);
        }

        @Override
        public void cancelAll() {
        }
    }

    private RunResult runAgainstATransportThatNeverCompletesCancelledRequests(TesterSpec spec) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 2, ServiceTime.constant(10 * MS), 1);
        server.addWindow(S, 100 * S);
        RunResult result = LoadRun.run(spec.duration(2 * S).grace(S).startDelay(0), scheduler,
                new DeafToCancel(server), RequestSource.get(Simulation.SIMULATED_URI), dir);
        CountsAddUp.check(result);
        assertThat(result.endNs()).isEqualTo(4 * S);
        return result;
    }

    /**
     * Each connection sends every 10 ms: 99 answers (sent at 0 ... 0.98 s); the request sent at 0.99 s would
     * end at 1 s, inside the stall, so it is held and dropped.
     */
    @Test
    void a_closed_run_ends_when_its_held_requests_are_dropped_by_the_backstop() throws IOException {
        RunResult result = runAgainstATransportThatNeverCompletesCancelledRequests(TesterSpec.closed(2));

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(200, 198, 198, 0, 2, 0, 2));
    }

    /** Iterations every 100 ms at offsets 0 and 50 ms: 20 answered before 1 s; those of 1.0 and 1.05 s dropped. */
    @Test
    void a_paced_run_ends_when_its_held_requests_are_dropped_by_the_backstop() throws IOException {
        RunResult result = runAgainstATransportThatNeverCompletesCancelledRequests(TesterSpec.paced(2, 100 * MS));
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(22, 20, 20, 0, 2, 0, 2));
        assertThat(records).filteredOn(r -> r.outcome() == Outcome.CANCELLED)
                .extracting(RequestRecord::intendedNanos).containsExactlyInAnyOrder(1000 * MS, 1050 * MS);
    }

    /**
     * As for a cancelled request, the dropped one ends its journey: with skip, the connection's iterations it
     * missed before the end (1.1 ... 1.9 s and 1.15 ... 1.95 s, 9 each) are counted as skipped.
     */
    @Test
    void a_paced_skip_run_counts_the_iterations_its_dropped_requests_missed_as_skipped() throws IOException {
        RunResult result = runAgainstATransportThatNeverCompletesCancelledRequests(
                TesterSpec.paced(2, 100 * MS).onLate(TesterSpec.OnLate.SKIP));

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(40, 20, 20, 0, 2, 18, 2));
    }

    /** Ten arrivals a second: the 10 of 0.0 ... 0.9 s answered, the 10 of 1.0 ... 1.9 s held and dropped. */
    @Test
    void an_open_run_ends_when_its_held_requests_are_dropped_by_the_backstop() throws IOException {
        RunResult result = runAgainstATransportThatNeverCompletesCancelledRequests(
                TesterSpec.open(10).arrivals(TesterSpec.Arrivals.CONSTANT));

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(20, 10, 10, 0, 10, 0, 10));
    }
}
