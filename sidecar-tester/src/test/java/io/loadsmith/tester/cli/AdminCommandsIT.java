package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** arm, stalls, disarm and clock against the real stall-service admin server on port 0. */
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
}
