package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas of the scored service, each in its own JVM with the agent ({@code trace-header=on}), behind
 * a round-robin TCP relay on 127.0.0.1 (each new connection to the next replica); one closed run of two
 * connections with {@code stalls.admin} listing both agents, stopped (as Ctrl-C stops it) once each agent
 * has run two stalls: both are armed, every stall row names its replica, every answer's replica is in
 * requests.bin, each row's count is the recount of the requests that its replica served, no stall
 * planned after the stop is reported missing, and each agent's observed pauses are kept and counted as its
 * replica's (the figures of both are recomputed by {@code loadsmith verify} after the test, as for every
 * results.json a test leaves).
 */
class ReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_run_armed_on_two_replicas_counts_each_request_against_the_stalls_of_the_replica_that_served_it(
            @TempDir Path out) throws Exception {
        ServiceProcess.Jars jars = jars();
        assertThat(jars.missing()).as("jars the test needs").isNull();
        CompletableFuture<ServiceProcess> startingA = start(jars, out.resolve("a.log"), "scored-a");
        CompletableFuture<ServiceProcess> startingB = start(jars, out.resolve("b.log"), "scored-b");
        try (ServiceProcess a = startingA.join();
             ServiceProcess b = startingB.join();
             Relay relay = Relay.start(List.of(a.url(), b.url()))) {
            String adminA = a.admin().base().toString();
            String adminB = b.admin().base().toString();
            Path file = out.resolve("replicas.yaml");
            Files.writeString(file, """
                    name: replicas
                    target: {url: 'http://127.0.0.1:%d'}
                    stalls: {admin: ['%s', '%s'], seed: 3, mean_interval: 600ms, duration: 100ms, min_gap: 300ms}
                    load: {model: closed, connections: 2, duration: 60s, warmup: 50, grace: 2s}
                    journeys:
                      - name: score
                        steps:
                          - request: GET /score/1
                    """.formatted(relay.port(), adminA, adminB));
            Scenario scenario = ScenarioParser.parse(file, List.of());
            Path dir = out.resolve("run");
            Files.createDirectories(dir);

            RunControl control = new RunControl();
            CompletableFuture<Void> stopper = CompletableFuture.runAsync(() -> stopOnceEachHasStalled(control, a, b));

            ScenarioRun.run(scenario, scenario.tester(), control, dir, null);
            stopper.join();

            JsonNode run = JSON.readTree(dir.resolve("results.json").toFile()).at("/runs/0");
            assertThat(run.get("interrupted").asBoolean()).isTrue();
            assertThat(run.get("duration_ms").asDouble()).as("stopped early").isLessThan(50_000);
            assertThat(run.path("warnings").toString()).doesNotContain("missing");
            JsonNode replicas = run.get("replicas");
            assertThat(replicas).hasSize(2);
            assertThat(replicas.get(0).get("address").asText()).isEqualTo(adminA);
            assertThat(replicas.get(1).get("address").asText()).isEqualTo(adminB);
            assertThat(replicas.get(0).get("replica_id").asText()).isEqualTo("scored-a");
            assertThat(replicas.get(1).get("replica_id").asText()).isEqualTo("scored-b");
            Map<Integer, String> addressOf = new HashMap<>();
            for (JsonNode replica : replicas) {
                assertThat(replica.get("run_id").asText()).isNotEmpty();
                assertThat(replica.get("missing")).as("planned stalls after the stop are not missing").isEmpty();
                assertThat(replica.get("stalls").asInt()).as("stalls of %s", replica).isPositive();
                assertThat(replica.get("requests_served").asLong()).as("requests served by %s", replica).isPositive();
                addressOf.put(replica.get("served_by").asInt(), replica.get("address").asText());
            }
            assertThat(addressOf).hasSize(2).doesNotContainKey(0);

            List<RequestRecord> counted = countedRecords(dir.resolve(RequestLog.FILE_NAME));
            Map<String, Long> servedPerReplica = new HashMap<>();
            for (RequestRecord r : counted) {
                if (r.outcome() == Outcome.OK) {
                    assertThat(addressOf).as("served by of %s", r).containsKey(r.servedBy());
                    servedPerReplica.merge(addressOf.get(r.servedBy()), 1L, Long::sum);
                }
            }
            assertThat(servedPerReplica).containsOnlyKeys(adminA, adminB);
            for (JsonNode replica : replicas) {
                assertThat(servedPerReplica.get(replica.get("address").asText()))
                        .isEqualTo(replica.get("requests_served").asLong());
            }

            Set<String> stalledReplicas = new HashSet<>();
            for (JsonNode stall : run.get("stalls")) {
                String replica = stall.get("replica").asText();
                stalledReplicas.add(replica);
                long start = stall.get("start_ns").asLong();
                long end = stall.get("end_ns").asLong();
                long recount = counted.stream().filter(r -> r.sentNanos() >= start && r.sentNanos() < end)
                        .filter(r -> r.servedBy() == 0 || replica.equals(addressOf.get(r.servedBy()))).count();
                assertThat(stall.get("sent_during").asLong()).as("sent during %s", stall).isEqualTo(recount);
            }
            assertThat(stalledReplicas).containsExactlyInAnyOrder(adminA, adminB);
            assertThat(run.get("stalls")).hasSize(replicas.get(0).get("stalls").asInt() + replicas.get(1).get("stalls").asInt());

            JsonNode agentPauses = JSON.readTree(dir.resolve("agent-pauses.json").toFile()).get("replicas");
            assertThat(agentPauses).as("each agent's observed pauses, apart").hasSize(2);
            assertThat(agentPauses.get(0).get("replica").asText()).isEqualTo(adminA);
            assertThat(agentPauses.get(1).get("run_id").asText()).isEqualTo(replicas.get(1).get("run_id").asText());
            for (JsonNode pause : run.get("service_pauses")) {
                assertThat(pause.get("replica").asText()).as("replica of %s", pause).isIn(adminA, adminB);
            }
            assertThat(run.get("service_pauses")).as("one row per pause kept in agent-pauses.json")
                    .hasSize(agentPauses.get(0).get("pauses").size() + agentPauses.get(1).get("pauses").size());

            JsonNode agentStalls = JSON.readTree(dir.resolve("agent-stalls.json").toFile());
            assertThat(agentStalls.get("replicas")).hasSize(2);
            assertThat(agentStalls.at("/replicas/0/replica").asText()).isEqualTo(adminA);
            assertThat(agentStalls.at("/replicas/1/run_id").asText()).isEqualTo(replicas.get(1).get("run_id").asText());
        }
    }

    /**
     * Stops the run (as Ctrl-C does) once both agents have run two stalls of it: the run is cut long
     * before its configured end, so stalls planned after the stop must not be counted as missing.
     */
    private static void stopOnceEachHasStalled(RunControl control, ServiceProcess a, ServiceProcess b) {
        try {
            await("both agents ran two stalls of the run").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> control.finished()
                            || (a.admin().stalls(null).size() >= 2 && b.admin().stalls(null).size() >= 2));
        } finally {
            control.stop();
        }
    }

    /** Starts a scored service with the agent and its header on, in the background (both start at once). */
    private static CompletableFuture<ServiceProcess> start(ServiceProcess.Jars jars, Path log, String replica) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return ServiceProcess.start(jars, 2, List.of(), log, 180, "trace-header=on,replica=" + replica);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
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

    private static ServiceProcess.Jars jars() {
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(ServiceProcess.findRoot(Path.of("")));
        String agent = System.getenv("LOADSMITH_AGENT_JAR");
        return agent == null || agent.isBlank() ? jars : new ServiceProcess.Jars(Path.of(agent), jars.service());
    }

    /** A TCP relay on 127.0.0.1 that hands each new connection to the next backend in turn. */
    private static final class Relay implements AutoCloseable {
        private final ServerSocket server;
        private final List<URI> backends;
        private final AtomicInteger next = new AtomicInteger();
        private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();

        private Relay(ServerSocket server, List<URI> backends) {
            this.server = server;
            this.backends = backends;
        }

        static Relay start(List<URI> backends) throws IOException {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Relay relay = new Relay(server, backends);
            Thread accept = new Thread(relay::accept, "relay-accept");
            accept.setDaemon(true);
            accept.start();
            return relay;
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    client.setTcpNoDelay(true);
                    URI backend = backends.get(Math.floorMod(next.getAndIncrement(), backends.size()));
                    Socket upstream = new Socket();
                    upstream.setTcpNoDelay(true);
                    upstream.connect(new InetSocketAddress(backend.getHost(), backend.getPort()), 3_000);
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    // closed, or a backend refused: the tester sees the connection fail
                }
            }
        }

        private static void pump(Socket from, Socket to) {
            Thread thread = new Thread(() -> {
                byte[] buffer = new byte[16 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException e) {
                    // one side closed
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }, "relay-pump");
            thread.setDaemon(true);
            thread.start();
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            sockets.forEach(Relay::closeQuietly);
        }
    }
}
