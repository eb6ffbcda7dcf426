package io.loadsmith.tester.simulate;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SimulatedServerTest {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;
    static final RequestSpec GET = RequestSpec.get(Simulation.SIMULATED_URI, -1, 0);

    /** Records what the server reported: "sent@t", "end@t:OUTCOME". */
    static final class Log implements Exchange {
        final List<String> events;

        Log(List<String> events) {
            this.events = events;
        }

        @Override
        public void sent(long actualSendNanos) {
            events.add("sent@" + actualSendNanos / MS);
        }

        @Override
        public void completed(long endNanos, int status, Outcome outcome, String detail) {
            events.add("end@" + endNanos / MS + ":" + outcome);
        }
    }

    @Test
    void k_servers_take_the_fifo_queue_in_order() {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 2, ServiceTime.constant(10 * MS), 1);
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            server.send(GET, new Log(events));
        }
        scheduler.runAll();

        assertThat(events).containsExactly("sent@0", "sent@0", "sent@0", "end@10:OK", "end@10:OK", "end@20:OK");
    }

    @Test
    void a_request_in_service_when_a_window_opens_ends_when_it_closes_and_one_arriving_inside_starts_after_it() {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 4, ServiceTime.constant(10 * MS), 1);
        server.arm(StallPlan.explicit(List.of(new PlannedStall(0, 5 * MS, 100 * MS)), StallKind.BLOCK), 0);
        List<String> events = new ArrayList<>();
        server.send(GET, new Log(events));                              // in service 0-10 ms: held to 105 ms
        scheduler.at(50 * MS, () -> server.send(GET, new Log(events)));  // arrives inside: starts at 105 ms
        scheduler.at(200 * MS, () -> server.send(GET, new Log(events))); // after: untouched
        scheduler.runAll();

        assertThat(events).containsExactly("sent@0", "sent@50", "end@105:OK", "end@115:OK", "sent@200", "end@210:OK");
        assertThat(server.held()).isEqualTo(2);
    }

    @Test
    void a_seeded_plan_is_armed_at_its_offsets_from_the_moment_of_arming() {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(MS), 1);
        StallPlan plan = StallPlan.seeded(new SeededPlanSpec(7, 4 * S, 100 * MS, 500 * MS, 60 * S), StallKind.BLOCK);
        long armedAt = 3 * S;
        server.arm(plan, armedAt);

        for (PlannedStall stall : plan.stalls()) {
            long start = armedAt + stall.offsetNanos();
            assertThat(server.gate(start - 1)).isEqualTo(start - 1);
            assertThat(server.gate(start)).isEqualTo(start + stall.durationNanos());
            assertThat(server.gate(start + stall.durationNanos())).isEqualTo(start + stall.durationNanos());
        }
        assertThat(plan.stalls()).isNotEmpty();
    }

    @Test
    void cancel_all_completes_every_request_in_flight_as_cancelled_once() {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(10 * MS), 1);
        List<String> events = new ArrayList<>();
        server.send(GET, new Log(events));
        server.send(GET, new Log(events));
        scheduler.runUntil(15 * MS);
        server.cancelAll();
        scheduler.runAll();

        assertThat(events).containsExactly("sent@0", "sent@0", "end@10:OK", "end@15:CANCELLED");
    }

    @Test
    void service_time_models_are_seeded_and_have_their_means() {
        ServiceTime.Sampler a = ServiceTime.exponential(MS).sampler(5);
        ServiceTime.Sampler b = ServiceTime.exponential(MS).sampler(5);
        ServiceTime.Sampler logNormal = ServiceTime.logNormal(MS, 0.5).sampler(5);
        double exponentialSum = 0;
        double logNormalSum = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            long x = a.nextNanos();
            assertThat(b.nextNanos()).isEqualTo(x);
            exponentialSum += x;
            logNormalSum += logNormal.nextNanos();
        }
        assertThat(exponentialSum / n).isBetween(0.99 * MS, 1.01 * MS);
        assertThat(logNormalSum / n).isBetween(0.99 * ServiceTime.logNormal(MS, 0.5).meanNanos(),
                1.01 * ServiceTime.logNormal(MS, 0.5).meanNanos());
        assertThat(ServiceTime.constant(3).sampler(1).nextNanos()).isEqualTo(3);
    }
}
