package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.ServedBy;
import io.loadsmith.tester.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run pipeline over two agents on a virtual clock, beside {@code ReplicasIT}'s real servers: two
 * simulated replicas behind a round-robin balancer that names the replica of every answer, each with an
 * {@link InMemoryAgent} (replica b's clock 5 s ahead of the tester's), one open run in which b's agent
 * stops answering 3.5 s after it was armed. Replica a keeps every stall of the plan; b keeps the windows
 * fetched before it went silent and leaves the rest unconfirmed; each stall row counts only the requests of
 * its own replica; each replica's requests and pauses are its own.
 */
class AgentsOnVirtualClockTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_run_on_two_agents_keeps_the_lost_ones_windows_fetched_before_and_counts_each_request_for_its_replica(
            @TempDir Path dir) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer serverA = new SimulatedServer(scheduler, 1, ServiceTime.constant(2 * MS), 1);
        SimulatedServer serverB = new SimulatedServer(scheduler, 1, ServiceTime.constant(2 * MS), 2);
        InMemoryAgent a = new InMemoryAgent("sim-a", scheduler, 0, serverA).pause(1_500 * MS, 1_520 * MS);
        InMemoryAgent b = new InMemoryAgent("sim-b", scheduler, 5 * S, serverB).silentAfterArming(3_500 * MS)
                .pause(1_500 * MS, 1_520 * MS);
        AgentStalls stalls = new AgentStalls(a, 3, 1_000 * MS, 100 * MS, 500 * MS, StallKind.BLOCK, List.of(a, b));
        TesterSpec tester = TesterSpec.open(200).duration(8 * S).grace(S).seed(5).startDelay(0).name("replicas");
        List<PlannedStall> planned = StallPlan.seeded(stalls.spec(8 * S), StallKind.BLOCK).stalls();

        StalledRun.StalledResult outcome = StalledRun.onVirtualClock(tester, scheduler,
                new RoundRobin(List.of(serverA, serverB), List.of("sim-a", "sim-b")),
                RequestSource.get(Simulation.SIMULATED_URI), dir, StallOptions.stalled(stalls));
        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME),
                AlignedResults.build(dir, List.of(new AlignedResults.Entry(dir, outcome, "replicas"))));

        JsonNode run = JSON.readTree(dir.resolve(ResultsWriter.FILE_NAME).toFile()).at("/runs/0");
        JsonNode replicas = run.get("replicas");
        assertThat(replicas).hasSize(2);
        assertThat(replicas.get(0).get("address").asText()).isEqualTo(a.base().toString());
        assertThat(replicas.get(1).get("replica_id").asText()).isEqualTo("sim-b");
        assertThat(replicas.get(1).get("clock_offset_used_ns").asLong()).isEqualTo(5 * S);

        List<Integer> endedBeforeSilence = planned.stream().filter(p -> p.endOffsetNanos() <= 3 * S)
                .map(PlannedStall::index).toList();
        List<Integer> endedAfter = planned.stream().filter(p -> p.endOffsetNanos() > 3 * S)
                .map(PlannedStall::index).toList();
        assertThat(endedBeforeSilence).isNotEmpty();
        assertThat(endedAfter).isNotEmpty();
        assertThat(replicas.get(0).get("stalls").asInt()).as("a answered to the end").isEqualTo(planned.size());
        assertThat(replicas.get(0).has("agent_lost")).isFalse();
        assertThat(replicas.get(1).get("stalls").asInt()).as("b's windows fetched at 3 s, its last answer")
                .isEqualTo(endedBeforeSilence.size());
        for (JsonNode replica : replicas) {
            assertThat(replica.get("missing")).as("missing of %s", replica.get("address")).isEmpty();
        }
        JsonNode lost = replicas.get(1).get("agent_lost");
        assertThat(lost.get("at_ms").asDouble()).as("the first unanswered fetch, 4 s after arming").isEqualTo(4_000.0);
        assertThat(JSON.convertValue(lost.get("unconfirmed_stalls"), List.class)).isEqualTo(endedAfter);
        assertThat(run.get("agent_lost")).isEqualTo(lost);
        assertThat(run.get("warnings").toString())
                .contains("replica " + b.base() + ": the agent stopped answering 4.0 s into the run")
                .doesNotContain("replica " + a.base());

        Map<Integer, String> addressOf = new HashMap<>();
        replicas.forEach(r -> addressOf.put(r.get("served_by").asInt(), r.get("address").asText()));
        assertThat(addressOf).hasSize(2).doesNotContainKey(ServedBy.NONE);
        List<RequestRecord> counted = countedRecords(dir.resolve(RequestLog.FILE_NAME));
        for (JsonNode replica : replicas) {
            long served = counted.stream().filter(r -> r.servedBy() == replica.get("served_by").asInt()).count();
            assertThat(replica.get("requests_served").asLong()).isPositive().isEqualTo(served);
        }
        Map<Integer, Long> startOfA = new HashMap<>();
        for (JsonNode stall : run.get("stalls")) {
            String replica = stall.get("replica").asText();
            long start = stall.get("start_ns").asLong();
            long end = stall.get("end_ns").asLong();
            long recount = counted.stream().filter(r -> r.sentNanos() >= start && r.sentNanos() < end)
                    .filter(r -> replica.equals(addressOf.get(r.servedBy()))).count();
            assertThat(stall.get("sent_during").asLong()).as("sent during %s", stall).isEqualTo(recount);
            if (replica.equals(a.base().toString())) {
                startOfA.put(stall.get("index").asInt(), start);
            } else {
                assertThat(start).as("b's window on the tester's clock").isEqualTo(startOfA.get(stall.get("index").asInt()));
            }
        }
        assertThat(run.get("stalls")).hasSize(planned.size() + endedBeforeSilence.size());

        JsonNode agentStalls = JSON.readTree(dir.resolve(StalledRun.AGENT_STALLS_FILE).toFile()).get("replicas");
        assertThat(agentStalls).hasSize(2);
        assertThat(agentStalls.get(0).has("agent_lost")).isFalse();
        assertThat(agentStalls.get(1).get("agent_lost").asBoolean()).isTrue();
        assertThat(agentStalls.get(1).get("run_id").asText()).isEqualTo(replicas.get(1).get("run_id").asText());
        assertThat(agentStalls.get(1).get("stalls")).hasSize(endedBeforeSilence.size());

        JsonNode agentPauses = JSON.readTree(dir.resolve(ServicePauses.FILE_NAME).toFile()).get("replicas");
        assertThat(agentPauses).as("the lost agent's pauses are not asked for").hasSize(1);
        assertThat(run.get("service_pauses")).hasSize(1);
        assertThat(run.at("/service_pauses/0/replica").asText()).isEqualTo(a.base().toString());
    }

    @Test
    void a_run_on_one_agent_keeps_the_files_and_fields_of_one(@TempDir Path dir) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(2 * MS), 1);
        InMemoryAgent agent = new InMemoryAgent("sim-one", scheduler, 0, server).pause(1_500 * MS, 1_520 * MS);
        AgentStalls stalls = new AgentStalls(agent, 3, 1_000 * MS, 100 * MS, 500 * MS, StallKind.BLOCK);
        TesterSpec tester = TesterSpec.open(200).duration(8 * S).grace(S).seed(5).startDelay(0).name("one");
        int planned = StallPlan.seeded(stalls.spec(8 * S), StallKind.BLOCK).stalls().size();

        StalledRun.StalledResult outcome = StalledRun.onVirtualClock(tester, scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir, StallOptions.stalled(stalls));

        assertThat(outcome.replicas()).isNull();
        assertThat(outcome.result().stall()).as("a run armed with stalls says so").isTrue();
        assertThat(outcome.result().replicas()).isNull();
        assertThat(outcome.result().agentLost()).isNull();
        assertThat(outcome.stalls()).hasSize(planned);
        assertThat(outcome.missing()).isEmpty();
        assertThat(outcome.armed().runId()).isEqualTo("sim-one-run");
        assertThat(outcome.alignment().stalls()).hasSize(planned).allMatch(s -> s.replica() < 0);
        assertThat(outcome.versions().agent()).isNotNull();
        JsonNode agentStalls = JSON.readTree(dir.resolve(StalledRun.AGENT_STALLS_FILE).toFile());
        assertThat(agentStalls.get("run_id").asText()).isEqualTo("sim-one-run");
        assertThat(agentStalls.get("stalls")).hasSize(planned);
        assertThat(JSON.readTree(dir.resolve(ServicePauses.FILE_NAME).toFile()).get("pauses")).hasSize(1);
        assertThat(outcome.result().servicePauses()).singleElement()
                .satisfies(row -> assertThat(row.replica()).isNull());
    }

    /** The records of the counted run (intended at or after the log's run start). */
    private static List<RequestRecord> countedRecords(Path log) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(log)) {
            long start = reader.runStartNanos();
            reader.forEachRemaining(r -> {
                if (r.intendedNanos() >= start) {
                    records.add(r);
                }
            });
        }
        return records;
    }

    /** A balancer that hands each request to the next replica in turn and names it in the answer. */
    private record RoundRobin(List<SimulatedServer> servers, List<String> ids, int[] next) implements Transport {

        RoundRobin(List<SimulatedServer> servers, List<String> ids) {
            this(servers, ids, new int[1]);
        }

        @Override
        public void send(RequestSpec request, Exchange exchange) {
            int replica = next[0]++ % servers.size();
            int servedBy = ServedBy.number(ids.get(replica));
            servers.get(replica).send(request, new Exchange() {
                @Override
                public void sent(long actualSendNanos) {
                    exchange.sent(actualSendNanos);
                }

                @Override
                public void completed(long endNanos, int status, Outcome outcome, String detail) {
                    exchange.servedBy(outcome == Outcome.CANCELLED ? ServedBy.NONE : servedBy);
                    exchange.completed(endNanos, status, outcome, detail);
                }
            });
        }

        @Override
        public void cancelAll() {
            servers.forEach(SimulatedServer::cancelAll);
        }
    }
}
