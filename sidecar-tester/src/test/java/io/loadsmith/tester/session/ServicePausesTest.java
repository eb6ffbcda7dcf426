package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.ResultsFixtures;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The service's pauses of a run, against a loopback server that answers {@code GET /pauses} as the agent does. */
class ServicePausesTest {

    private static final long MS = 1_000_000L;
    /** The agent's clock is 5 ms ahead of the tester's, far beyond the probe's uncertainty. */
    private static final ClockOffset OFFSET = new ClockOffset(5 * MS, 10_000, 20_000, 5);

    private final List<HttpServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(server -> server.stop(0));
    }

    private AdminClient agent(int status, String pausesAnswer) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        servers.add(server);
        server.createContext("/pauses", exchange -> {
            byte[] bytes = pausesAnswer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return AdminClient.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null);
    }

    /** A pause of the agent, its times on the agent's clock. */
    private static String pause(int index, String source, String label, long startMs, long endMs) {
        return pause(index, source, label, startMs, endMs, OFFSET);
    }

    /** A pause of an agent whose clock is {@code offset} from the tester's, its times on that clock. */
    private static String pause(int index, String source, String label, long startMs, long endMs, ClockOffset offset) {
        String safepoint = source.equals("safepoint") ? ",\"operation\":\"GenCollectFull\",\"gc\":\"SerialOld\","
                + "\"time_to_safepoint_ns\":1000" : "";
        return "{\"index\":" + index + ",\"source\":\"" + source + "\",\"label\":\"" + label + "\",\"start_ns\":"
                + (startMs * MS + offset.offsetNanos()) + ",\"end_ns\":" + (endMs * MS + offset.offsetNanos()) + safepoint + "}";
    }

    /** A counted run of 1 s from 0 (tester's clock) with sends at 100, 120 and 600 ms, each answered 1 ms later. */
    private static Path runDir(Path dir) throws IOException {
        try (RequestLog.Writer log = RequestLog.create(dir.resolve(RequestLog.FILE_NAME), 0)) {
            for (long sentMs : new long[] {100, 120, 600}) {
                log.append(sentMs * MS, sentMs * MS, sentMs * MS + MS, 0, 0, 200, Outcome.OK);
            }
        }
        return dir;
    }

    @Test
    void the_pauses_overlapping_the_run_and_its_grace_are_kept_as_served_and_counted_on_the_testers_clock(
            @TempDir Path dir) throws IOException {
        String before = pause(0, "safepoint", "RedefineClasses", -300, -200);
        String gc = pause(1, "safepoint", "GenCollectFull SerialOld (System.gc())", 110, 130);
        String sleeper = pause(2, "sleeper", "attributed", 111, 135);
        String inGrace = pause(3, "sleeper", "host", 1200, 1210);
        String after = pause(4, "sleeper", "host", 1600, 1610);
        AdminClient admin = agent(200, "{\"observing\":true,\"jfr\":\"on\",\"next_index\":5,\"more\":false,\"dropped\":0,"
                + "\"pauses\":[" + String.join(",", before, gc, sleeper, inGrace, after) + "]}");

        RunResult result = attachOne(ResultsFixtures.run("open"), admin, "r-1", OFFSET.forAlignment(), 0,
                1000 * MS, 500 * MS, runDir(dir));

        JsonNode file = new ObjectMapper().readTree(dir.resolve("agent-pauses.json").toFile());
        assertThat(file.get("run_id").asText()).isEqualTo("r-1");
        assertThat(file.get("pauses").toString()).isEqualTo("[" + String.join(",", gc, sleeper, inGrace) + "]");
        assertThat(result.servicePauses()).containsExactly(
                new RunResult.PauseRow(1, "safepoint", "GenCollectFull SerialOld (System.gc())", 110 * MS, 130 * MS,
                        1000L, 1, 1, 0, 1, true),
                new RunResult.PauseRow(2, "sleeper", "attributed", 111 * MS, 135 * MS, null, 1, 1, 0, 1, true),
                new RunResult.PauseRow(3, "sleeper", "host", 1200 * MS, 1210 * MS, null, 0, 0, 0, 0, false));
        assertThat(result.pauseSummary()).isEqualTo(new RunResult.PauseSummary(3, 2, 2, 1, 0.333333, 25.0));
        assertThat(ServicePauses.consoleLine(result))
                .isEqualTo("service pauses: 2 (safepoint 1, sleeper 1, 25 ms in all); 1 sends met one");
    }

    @Test
    void the_pauses_of_several_agents_are_moved_by_each_ones_offset_and_count_only_the_requests_of_their_replica(
            @TempDir Path dir) throws IOException {
        ClockOffset behind = new ClockOffset(-3 * MS, 10_000, 20_000, 5);
        String pauseA = pause(0, "safepoint", "G1 Pause Young", 110, 130);
        String pauseB = pause(0, "sleeper", "host", 110, 130, behind);
        AdminClient a = agent(200, "{\"observing\":true,\"jfr\":\"on\",\"next_index\":1,\"more\":false,\"dropped\":0,"
                + "\"pauses\":[" + pauseA + "]}");
        AdminClient b = agent(200, "{\"observing\":true,\"jfr\":\"on\",\"next_index\":1,\"more\":false,\"dropped\":0,"
                + "\"pauses\":[" + pauseB + "]}");
        List<Replicas.Replica> replicas = List.of(replica(a, OFFSET, "run-a", 7), replica(b, behind, "run-b", 8));
        // sends at 115 ms served by A, 120 ms by B, 125 ms by no replica the run knows
        try (RequestLog.Writer log = RequestLog.create(dir.resolve(RequestLog.FILE_NAME), 0)) {
            log.append(115 * MS, 115 * MS, 116 * MS, 0, 0, 200, Outcome.OK, 7);
            log.append(120 * MS, 120 * MS, 121 * MS, 0, 0, 200, Outcome.OK, 8);
            log.append(125 * MS, 125 * MS, 126 * MS, 0, 0, 200, Outcome.OK, 0);
        }

        RunResult result = ServicePauses.attach(ResultsFixtures.run("open"), replicas, List.of(a, b), 0, 1000 * MS,
                0, dir, number -> number == 7 ? 0 : number == 8 ? 1 : -1);

        assertThat(result.servicePauses()).containsExactlyInAnyOrder(
                new RunResult.PauseRow(0, "safepoint", "G1 Pause Young", 110 * MS, 130 * MS, 1000L, 2, 2, 0, 2, true,
                        a.base().toString()),
                new RunResult.PauseRow(0, "sleeper", "host", 110 * MS, 130 * MS, null, 2, 2, 0, 2, true,
                        b.base().toString()));
        assertThat(result.pauseSummary().overlapping()).as("each request once").isEqualTo(3);
        JsonNode file = new ObjectMapper().readTree(dir.resolve("agent-pauses.json").toFile()).get("replicas");
        assertThat(file).hasSize(2);
        assertThat(file.get(0).get("replica").asText()).isEqualTo(a.base().toString());
        assertThat(file.get(0).get("run_id").asText()).isEqualTo("run-a");
        assertThat(file.get(1).get("pauses").toString()).isEqualTo("[" + pauseB + "]");
    }

    @Test
    void an_agent_lost_during_a_run_on_several_adds_no_pauses(@TempDir Path dir) throws IOException {
        AdminClient a = agent(200, "{\"observing\":true,\"jfr\":\"on\",\"next_index\":1,\"more\":false,\"dropped\":0,"
                + "\"pauses\":[" + pause(0, "sleeper", "host", 110, 130) + "]}");
        Replicas.Replica lost = new Replicas.Replica("http://127.0.0.1:9", null, OFFSET, armed("run-b"), List.of(),
                List.of(), 0, 0, new RunResult.AgentLost(500.0, List.of(), "no answer"));

        RunResult result = ServicePauses.attach(ResultsFixtures.run("open"), List.of(replica(a, OFFSET, "run-a", 0), lost),
                List.of(a, AdminClient.of(URI.create(lost.address()), null)), 0, 1000 * MS, 0, runDir(dir), number -> -1);

        assertThat(result.servicePauses()).extracting(RunResult.PauseRow::replica).containsExactly(a.base().toString());
        assertThat(new ObjectMapper().readTree(dir.resolve("agent-pauses.json").toFile()).get("replicas")).hasSize(1);
    }

    private static Replicas.Replica replica(AdminClient agent, ClockOffset offset, String runId, int servedBy) {
        return new Replicas.Replica(agent.base().toString(), null, offset, armed(runId), List.of(), List.of(), servedBy,
                0, null);
    }

    /** {@link ServicePauses#attach} for a run on one agent, {@code admin}, armed under {@code runId}. */
    private static RunResult attachOne(RunResult run, AdminClient admin, String runId, ClockOffset offset,
                                       long countStartNanos, long durationNanos, long graceNanos, Path runDir)
            throws IOException {
        return ServicePauses.attach(run, List.of(replica(admin, offset, runId, 0)), List.of(admin), countStartNanos,
                durationNanos, graceNanos, runDir, number -> -1);
    }

    private static AdminClient.Armed armed(String runId) {
        return new AdminClient.Armed(runId, 0, 1000 * MS, List.of());
    }

    @Test
    void an_agent_without_pauses_leaves_the_run_without_them_and_writes_no_file(@TempDir Path dir) throws IOException {
        AdminClient admin = agent(404, "{\"error\":\"no such endpoint\"}");
        RunResult run = ResultsFixtures.run("open");

        RunResult result = attachOne(run, admin, "r-1", ClockOffset.SAME_CLOCK, 0, 1000 * MS, 0, runDir(dir));

        assertThat(result).isEqualTo(run);
        assertThat(result.servicePauses()).isNull();
        assertThat(dir.resolve("agent-pauses.json")).doesNotExist();
        assertThat(ServicePauses.consoleLine(result)).isNull();
    }

    @Test
    void an_agent_that_observes_nothing_leaves_the_run_without_pauses(@TempDir Path dir) throws IOException {
        AdminClient admin = agent(200, "{\"observing\":false,\"jfr\":\"off\",\"next_index\":0,\"more\":false,"
                + "\"dropped\":0,\"pauses\":[]}");

        RunResult result = attachOne(ResultsFixtures.run("open"), admin, "r-1", ClockOffset.SAME_CLOCK, 0,
                1000 * MS, 0, runDir(dir));

        assertThat(result.servicePauses()).isNull();
        assertThat(result.pauseSummary()).isNull();
        assertThat(dir.resolve("agent-pauses.json")).doesNotExist();
    }

    @Test
    void an_observing_agent_with_no_pause_in_the_run_gives_an_empty_list_and_a_zero_summary(@TempDir Path dir)
            throws IOException {
        AdminClient admin = agent(200, "{\"observing\":true,\"jfr\":\"on\",\"next_index\":0,\"more\":false,"
                + "\"dropped\":0,\"pauses\":[]}");

        RunResult result = attachOne(ResultsFixtures.run("open"), admin, "r-1", ClockOffset.SAME_CLOCK, 0,
                1000 * MS, 0, runDir(dir));

        assertThat(result.servicePauses()).isEmpty();
        assertThat(result.pauseSummary()).isEqualTo(new RunResult.PauseSummary(0, 0, 0, 0, 0.0, 0.0));
        assertThat(new ObjectMapper().readTree(dir.resolve("agent-pauses.json").toFile()).toString())
                .isEqualTo("{\"run_id\":\"r-1\",\"pauses\":[]}");
    }

    @Test
    void the_pause_aligned_plot_averages_the_sends_around_each_pause_met(@TempDir Path dir) throws IOException {
        RunResult run = ResultsFixtures.run("open").withServicePauses(List.of(
                new RunResult.PauseRow(1, "safepoint", "GenCollectFull", 110 * MS, 130 * MS, 1000L, 1, 0, 0, 1, true)),
                new RunResult.PauseSummary(1, 1, 1, 1, 0.333333, 20.0));
        StalledRun.StalledResult outcome = new StalledRun.StalledResult(run, ClockOffset.SAME_CLOCK, null, List.of(), null, List.of());

        var plot = AlignedResults.pauseAlignment(List.of(new AlignedResults.Entry(runDir(dir), outcome, "open")));

        assertThat(plot.stallMs()).isEqualTo(20.0);
        assertThat(plot.binMs()).isEqualTo(1.0);
        assertThat(plot.fromMs()).isEqualTo(-20.0);
        assertThat(plot.toMs()).isEqualTo(40.0);
        assertThat(plot.series()).hasSize(1);
        assertThat(plot.series().get(0).stallsMet()).isEqualTo(1);
        List<Double> perBin = plot.series().get(0).sendsPerBin();
        assertThat(perBin).hasSize(60);
        assertThat(perBin.get(10)).isEqualTo(1.0);   // the send at 100 ms, 10 ms before the pause
        assertThat(perBin.get(30)).isEqualTo(1.0);   // the send at 120 ms, 10 ms into it
        assertThat(perBin.stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(2.0);
    }
}
