package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.tools.attach.VirtualMachine;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.experiment.ScoreRequests;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.TransportOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end: the scored service with the real agent in a child JVM, an open loop and then a closed loop
 * against it with stalls armed, and in each run a full collection forced from outside with the diagnostic
 * command of {@code jcmd PID GC.run}. The run's results must list that collection as a service pause whose
 * start lies inside the {@code System.nanoTime()} bracket of the command (the tester's clock: this JVM), with the
 * open loop's sends inside it recounted from requests.bin, and the closed loop sending at most one request
 * per connection inside any safepoint.
 */
class ServicePausesIT {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final long WARMUP = 100;
    private static final int CLOSED_CONNECTIONS = 4;

    /** One forced collection: when the command was sent and when it returned, on this JVM's clock. */
    record Bracket(long beforeNanos, long afterNanos) {
    }

    @Test
    void a_collection_forced_during_a_run_is_a_service_pause_inside_its_bracket_and_its_sends_are_counted(
            @TempDir Path out) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        List<AlignedResults.Entry> entries = new ArrayList<>();
        Bracket openGc;
        Bracket closedGc;
        try (ServiceProcess service = ServiceProcess.start(jars, CLOSED_CONNECTIONS, List.of(),
                out.resolve("service.log"), 180)) {
            AgentStalls stalls = new AgentStalls(service.admin(), 7, 1500 * MS, 50 * MS, 500 * MS, StallKind.BLOCK);
            openGc = run(service, stalls, counted(TesterSpec.open(400)).name("open-400"), 256, out, entries);
            closedGc = run(service, stalls, counted(TesterSpec.closed(CLOSED_CONNECTIONS))
                    .name("closed-" + CLOSED_CONNECTIONS), CLOSED_CONNECTIONS, out, entries);
        }
        Path file = ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME), AlignedResults.build(out, entries));

        JsonNode results = new ObjectMapper().readTree(file.toFile());
        JsonNode open = results.at("/runs/0");
        JsonNode openPause = collectionInside(open, openGc);
        assertThat(openPause.get("met").asBoolean()).isTrue();
        assertThat(openPause.get("sent_during").asLong()).as("open loop's sends inside %s", openPause)
                .isEqualTo(sentInside(out.resolve(open.get("requests_log").asText()), openPause));
        JsonNode closed = results.at("/runs/1");
        collectionInside(closed, closedGc);
        for (JsonNode pause : closed.get("service_pauses")) {
            // a safepoint stops every Java thread of the service: each connection's answer written before it
            // lets the closed loop send once more, and nothing more is answered until it ends
            if (pause.get("source").asText().equals("safepoint") && pause.get("met").asBoolean()) {
                assertThat(pause.get("sent_during").asLong()).as("closed loop inside %s", pause)
                        .isLessThanOrEqualTo(CLOSED_CONNECTIONS);
            }
        }
        assertThat(out.resolve("runs/open-400/agent-pauses.json")).isNotEmptyFile();
        assertThat(results.at("/pause_alignment/series")).hasSize(2);
    }

    /**
     * 3 s counted after a short warm-up: a pause is finalised up to ~2 s after it ended, and the collection
     * comes at the start of the run, so it is served by the time the run's pauses are fetched.
     */
    private static TesterSpec counted(TesterSpec tester) {
        return tester.duration(3 * S).warmupRequests(WARMUP).seed(7).grace(2 * S);
    }

    /**
     * Runs {@code tester} with stalls and forces a collection once the counted run has made its first
     * twenty requests (after the agent was armed); returns the command's bracket.
     */
    private static Bracket run(ServiceProcess service, AgentStalls stalls, TesterSpec tester, int connections,
                               Path out, List<AlignedResults.Entry> entries) throws Exception {
        AtomicLong made = new AtomicLong();
        RequestSource score = new ScoreRequests(service.url(), 20_000);
        RequestSource counting = new RequestSource() {
            @Override
            public RequestSpec request(long arrival, int position, int connection) {
                made.incrementAndGet();
                return score.request(arrival, position, connection);
            }
        };
        DiagnosticCommands commands = new DiagnosticCommands(service.pid());
        Bracket[] bracket = new Bracket[1];
        Exception[] failure = new Exception[1];
        Thread gc = new Thread(() -> {
            try {
                // the agent is armed when the warm-up has drained, a moment before the counted run starts
                await("the agent armed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                        .until(() -> service.admin().health().path("armed").asBoolean());
                long armedAt = made.get();
                await("20 requests made since the arm").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(1)).until(() -> made.get() >= armedAt + 20);
                long before = System.nanoTime();
                commands.gcRun();
                bracket[0] = new Bracket(before, System.nanoTime());
            } catch (Exception e) {
                failure[0] = e;
            }
        }, "force-gc");
        gc.start();
        Path runDir = out.resolve("runs").resolve(tester.name());
        StalledRun.StalledResult outcome = StalledRun.real(tester, counting, TransportOptions.connections(connections),
                runDir, StallOptions.stalled(stalls));
        gc.join(TimeUnit.SECONDS.toMillis(60));
        commands.close();
        assertThat(failure[0]).isNull();
        assertThat(bracket[0]).as("the collection of %s was forced", tester.name()).isNotNull();
        entries.add(new AlignedResults.Entry(runDir, outcome, tester.name()));
        return bracket[0];
    }

    /** The run's safepoint for the forced collection: the one whose start lies inside the bracket. */
    private static JsonNode collectionInside(JsonNode run, Bracket bracket) {
        assertThat(run.get("service_pauses")).as("service pauses of %s", run.get("name")).isNotNull();
        List<JsonNode> inside = new ArrayList<>();
        List<JsonNode> safepoints = new ArrayList<>();
        for (JsonNode pause : run.get("service_pauses")) {
            long start = pause.get("start_ns").asLong();
            if (pause.get("source").asText().equals("safepoint")) {
                safepoints.add(pause);
                if (pause.get("label").asText().contains("Diagnostic Command")
                        && start >= bracket.beforeNanos() && start <= bracket.afterNanos()) {
                    inside.add(pause);
                }
            }
        }
        assertThat(inside).as("collections of %s inside %s among its safepoints %s", run.get("name"), bracket,
                safepoints).hasSize(1);
        return inside.get(0);
    }

    /** Requests of the counted run sent inside the pause, from the request log. */
    private static long sentInside(Path requestLog, JsonNode pause) throws IOException {
        long start = pause.get("start_ns").asLong();
        long end = pause.get("end_ns").asLong();
        long count = 0;
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            long countStart = records.runStartNanos();
            while (records.hasNext()) {
                RequestRecord r = records.next();
                if (r.intendedNanos() >= countStart && r.sentNanos() >= start && r.sentNanos() < end) {
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * The service's diagnostic commands (what {@code jcmd PID ...} runs), through the JMX agent the Attach API
     * starts in it: attached before the run, so that a command in the run costs a JMX call, not the start of
     * a {@code jcmd} JVM (seconds on a loaded box, which could put the collection after the run).
     */
    static final class DiagnosticCommands implements AutoCloseable {
        private final JMXConnector connector;

        DiagnosticCommands(long pid) throws Exception {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                connector = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
            } finally {
                vm.detach();
            }
        }

        /** {@code jcmd PID GC.run}: a full collection, returning when it is done. */
        void gcRun() throws Exception {
            connector.getMBeanServerConnection().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcRun", new Object[] {new String[0]}, new String[] {String[].class.getName()});
        }

        @Override
        public void close() throws IOException {
            connector.close();
        }
    }
}
