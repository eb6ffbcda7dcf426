package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.ServerStall;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * arm, stalls, disarm and clock against the real stall-service admin server on port 0; a pause profile armed
 * by {@code arm --replay} and by a scenario's {@code stalls.replay}.
 */
class AdminCommandsIT {

    private StallController controller;
    private AdminServer server;
    private String admin;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start() {
        controller = new StallController(Clock.system(), new StallGate());
        server = AdminServer.start(AdminConfig.builder().host("127.0.0.1").port(0).build(), controller);
        admin = "http://127.0.0.1:" + server.address().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
        controller.close();
    }

    private int run(String... args) {
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @Test
    void arm_then_stalls_then_disarm_show_the_windows() throws Exception {
        assertThat(run("arm", "--admin", admin, "--stall", "20ms:30ms", "--stall", "100ms:10ms")).isEqualTo(0);
        assertThat(out.toString()).contains("2 stalls planned");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> controller.totals().stalls() == 2);
        assertThat(run("stalls", "--admin", admin)).isEqualTo(0);
        assertThat(out.toString()).contains("stalls of " + admin + ": 2");
        assertThat(run("disarm", "--admin", admin)).isEqualTo(0);
        assertThat(out.toString()).contains("disarmed " + admin);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void clock_reports_an_offset_within_its_uncertainty_on_one_host() {
        assertThat(run("clock", "--admin", admin, "--probes", "3")).isEqualTo(0);
        assertThat(out.toString()).contains("offset").contains("best of 3 probes");
    }

    @Test
    void a_bad_arm_is_bad_input_naming_the_field() {
        assertThat(run("arm", "--admin", admin, "--duration", "0ms")).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("400");
    }

    @Test
    void a_wrong_token_is_bad_input_naming_the_call(@TempDir Path dir) throws Exception {
        StallController guarded = new StallController(Clock.system(), new StallGate());
        try (AdminServer withToken = AdminServer.start(AdminConfig.builder().host("127.0.0.1").port(0).token("right")
                .build(), guarded)) {
            Path token = Files.writeString(dir.resolve("token"), "wrong\n");
            String address = "http://127.0.0.1:" + withToken.address().getPort();
            assertThat(run("clock", "--admin", address, "--token-file", token.toString())).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(err.toString()).contains("admin " + address + ": GET /clock answered 401");
        } finally {
            guarded.close();
        }
    }

    @Test
    void a_scenario_whose_token_file_is_missing_is_bad_input_naming_the_file_and_the_field(@TempDir Path dir)
            throws Exception {
        Path scenario = Files.writeString(dir.resolve("stalled.yaml"), """
                name: stalled
                target: {url: "%s"}
                stalls: {admin: "%s", token_file: "%s"}
                load: {model: open, rate: 10, duration: 1s}
                journeys: [{name: ping, steps: [{request: GET /}]}]
                """.formatted(admin, admin, dir.resolve("no-token")));
        assertThat(run("run", scenario.toString(), "--out", dir.resolve("out").toString())).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().strip()).isEqualTo("loadsmith: stalled.yaml: stalls.token_file: "
                + dir.resolve("no-token") + " does not exist");
    }

    @Test
    void an_agent_that_is_not_there_is_unreachable() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        assertThat(run("stalls", "--admin", "http://127.0.0.1:" + port)).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString()).contains("cannot reach the agent's admin API for GET /stalls");
    }

    /**
     * A profile of five pauses, replayed from 100 ms with min_duration 5 ms: the one at 50 ms is before the
     * range, the 3 ms safepoint too short, the full collection and the host stop that touches it one window.
     */
    private static Path profile(Path dir) throws IOException {
        return Files.writeString(dir.resolve("prod.json"), """
                {"schema": "loadsmith.pause-profile/1",
                 "origin": {"kind": "gc-log", "file": "gc.log", "collector": "G1", "decoration": "uptime", "start": "jvm-start"},
                 "span_ms": 1000.0, "resolution_ms": 1.0,
                 "pauses": [
                   {"offset_ms": 50.0, "duration_ms": 10.0, "source": "gc", "label": "G1: Pause Young (Normal) (G1 Evacuation Pause)"},
                   {"offset_ms": 150.0, "duration_ms": 40.0, "source": "gc", "label": "G1: Pause Young (Concurrent Start) (G1 Humongous Allocation)"},
                   {"offset_ms": 400.0, "duration_ms": 3.0, "source": "safepoint", "label": "Safepoint \\"Cleanup\\""},
                   {"offset_ms": 600.0, "duration_ms": 60.0, "source": "gc", "label": "G1: Pause Full (System.gc())"},
                   {"offset_ms": 660.0, "duration_ms": 20.0, "source": "host", "label": "host"}],
                 "unread": {"lines": 0, "first": []}}
                """);
    }

    /** The replay of {@link #profile}: (offset, duration) in ms from the moment of arming. */
    private static final long[][] REPLAYED_MS = {{50, 40}, {500, 80}};
    private static final long FEW_MS = 5;
    /**
     * How far from the counted start's offset the run's arm may land on the agent, either way: the tester
     * arms again while an arm lands more than 1 ms off the time expected (what the arm before took), up to
     * five times, and keeps the last. On a busy 2-core box, with the agent in this JVM, the last arm landed
     * 0.4 to 5.5 ms late; beside one more busy loop each arm took 3-15 ms, the fifth was still off, and it
     * landed up to 7.4 ms late or 5.3 ms early (and 8.6 ms early once in CI).
     */
    private static final long ARM_LANDING_MS = 10;

    @Test
    void arm_replay_makes_the_windows_of_the_profiles_pauses_at_their_offsets(@TempDir Path dir) throws Exception {
        assertThat(run("arm", "--admin", admin, "--replay", profile(dir).toString(), "--from", "100ms",
                "--min-duration", "5ms")).isEqualTo(0);
        assertThat(out.toString()).contains("2 stalls planned, replaying 3 pauses of " + dir.resolve("prod.json"))
                .contains("150.000 ms gc: G1: Pause Young (Concurrent Start) (G1 Humongous Allocation)")
                .contains("600.000 ms gc+host: G1: Pause Full (System.gc()) + host");
        Matcher armedAt = Pattern.compile("armed_at_ns (\\d+)").matcher(out.toString());
        assertThat(armedAt.find()).isTrue();
        long armedAtNanos = Long.parseLong(armedAt.group(1));
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> controller.totals().stalls() == 2);

        List<ServerStall> windows = AdminClient.of(URI.create(admin), null).stalls(null);
        assertThat(windows).hasSize(2);
        for (int i = 0; i < windows.size(); i++) {
            ServerStall w = windows.get(i);
            assertThat((w.startNanos() - armedAtNanos) / 1e6).as("offset of window %d", i)
                    .isCloseTo(REPLAYED_MS[i][0], within((double) FEW_MS));
            assertThat((w.endNanos() - w.startNanos()) / 1e6).as("length of window %d", i)
                    .isCloseTo(REPLAYED_MS[i][1], within((double) FEW_MS));
        }
    }

    @Test
    void a_run_with_a_replayed_plan_names_each_windows_pause_in_its_row(@TempDir Path dir) throws Exception {
        HttpServer target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        target.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        target.start();
        int exit;
        Path outDir = dir.resolve("out");
        try {
            profile(dir);
            Path scenario = Files.writeString(dir.resolve("replayed.yaml"), """
                    target: {url: "http://127.0.0.1:%d"}
                    stalls: {admin: "%s", replay: prod.json, from: 100ms, min_duration: 5ms}
                    load: {model: open, rate: 50, duration: 1s, grace: 200ms}
                    """.formatted(target.getAddress().getPort(), admin));
            exit = run("run", scenario.toString(), "--out", outDir.toString(), "--progress", "none");
        } finally {
            target.stop(0);
        }

        assertThat(err.toString()).isEmpty();
        assertThat(exit).isEqualTo(ExitCodes.OK);
        JsonNode results = new ObjectMapper().readTree(outDir.resolve("results.json").toFile());
        JsonNode rows = results.at("/runs/0/stalls");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("replayed").toString()).isEqualTo("{\"source\":\"gc\",\"label\":\"G1: Pause Young "
                + "(Concurrent Start) (G1 Humongous Allocation)\",\"offset_ms\":150.0,\"duration_ms\":40.0,"
                + "\"planned_offset_ms\":50.0,\"planned_duration_ms\":40.0}");
        assertThat(rows.get(1).get("replayed").toString()).isEqualTo("{\"source\":\"gc+host\",\"label\":\"G1: Pause "
                + "Full (System.gc()) + host\",\"offset_ms\":600.0,\"duration_ms\":80.0,\"planned_offset_ms\":500.0,"
                + "\"planned_duration_ms\":80.0}");
        long startNanos = results.at("/start/monotonic_ns").asLong();
        JsonNode planned = new ObjectMapper().readTree(outDir.resolve("agent-stalls.json").toFile()).get("stalls");
        long firstPlannedNanos = planned.get(0).get("planned_start_ns").asLong();
        assertThat((firstPlannedNanos - startNanos) / 1e6).as("the first window's planned offset from the counted start")
                .isBetween(REPLAYED_MS[0][0] - (double) ARM_LANDING_MS, REPLAYED_MS[0][0] + (double) ARM_LANDING_MS);
        for (int i = 0; i < rows.size(); i++) {
            JsonNode row = rows.get(i);
            long plannedNanos = planned.get(i).get("planned_start_ns").asLong();
            assertThat(plannedNanos - firstPlannedNanos).as("planned offset of window %d from the first", i)
                    .isEqualTo((REPLAYED_MS[i][0] - REPLAYED_MS[0][0]) * 1_000_000L);
            assertThat((row.get("start_ns").asLong() - plannedNanos) / 1e6).as("row %d from its planned start", i)
                    .isCloseTo(0.0, within((double) FEW_MS));
            assertThat((row.get("end_ns").asLong() - row.get("start_ns").asLong()) / 1e6).as("length of row %d", i)
                    .isCloseTo(REPLAYED_MS[i][1], within((double) FEW_MS));
        }
        assertThat(out.toString()).contains("replays (offset in the profile, source: label)")
                .contains("600.00 ms gc+host: G1: Pause Full (System.gc()) + host");
    }
}
