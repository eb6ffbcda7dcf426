package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kind: freeze} in a real second JVM: the agent stops the whole process for each window and a kernel
 * timer continues it. Seen from outside through {@code /proc} (this test and the service share the host's
 * {@code CLOCK_MONOTONIC}): during a window every thread of the service is stopped, its admin port answers
 * nothing, and the service has no child process; nothing here sends {@code SIGCONT}, so the timer alone ends
 * the window, on time. Then {@code /stalls} serves the windows with edges within 2 ms of the plan. On JDK 17
 * (the build's) and JDK 25 (/usr/lib/jvm/temurin-25-jdk-amd64; skipped, with that reason, where it is not
 * installed), where the JDK warns once about JNA's restricted {@code System::load}, at the first freeze plan.
 */
class FreezeIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";
    private static final long MS = 1_000_000L;
    /** Offsets and durations of the plan, in ms: a long window to look into, then short ones. */
    private static final long[][] PLAN = {{400, 250}, {1_000, 40}, {1_300, 100}, {1_600, 20}};
    /** The length of the window armed at offset 0, in ms. */
    private static final long LATE_MS = 60;
    private static final Pattern WINDOW = Pattern.compile("\"index\":(\\d+),\"run_id\":\"[^\"]+\",\"planned_start_ns\":(\\d+),"
            + "\"start_ns\":(\\d+),\"end_ns\":(\\d+),\"held\":(\\d+),\"kind\":\"freeze\",\"start_uncertainty_ns\":(\\d+),"
            + "\"end_uncertainty_ns\":(\\d+)");

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {17, 25})
    void a_freeze_stops_every_thread_and_the_admin_port_and_only_its_timer_continues_the_process(int jdk) throws Exception {
        Path javaHome = jdk == 25 ? ChildJvm.JDK25 : ChildJvm.currentJavaHome();
        Assumptions.assumeTrue(Files.isExecutable(ChildJvm.javaOf(javaHome)), "skipped: no JDK at " + javaHome);
        List<String> jvmArgs = new ArrayList<>(AbstractServerStallIT.baseJvmArgs());
        jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=admin=127.0.0.1:0,observe=off");
        try (ChildJvm app = ChildJvm.start(javaHome, jvmArgs, List.of(), APP)) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);
            assertThat(admin.get("/health").body()).contains("\"freeze\":\"loads on the first freeze plan\"");

            // no request was served, so nothing is gated yet: a freeze needs no gate and arms all the same
            long armedAt = admin.arm(planJson());
            long firstEnd = armedAt + (PLAN[0][0] + PLAN[0][1]) * MS;
            await("the service stopped").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(() -> state(app.pid()) == 'T');
            assertThat(threadStates(app.pid())).as("every thread of the service").containsOnly('T');
            assertThatThrownBy(() -> askHealth(URI.create(app.adminUrl()))).as("the admin port during the freeze")
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(state(app.pid())).as("still stopped after the admin call timed out").isEqualTo('T');
            assertThat(children(app.pid())).as("child processes of the service").isEmpty();

            await("the service continued").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(() -> state(app.pid()) != 'T');
            long continuedSeen = System.nanoTime();
            assertThat((continuedSeen - firstEnd) / 1e6).as("ms from the window's planned end to seeing it run")
                    .isBetween(-1.0, 100.0);

            await("the four windows").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(windows(admin.get("/stalls").body())).as("windows; /health: %s",
                            admin.get("/health").body()).hasSize(PLAN.length));
            List<long[]> windows = windows(admin.get("/stalls").body());
            for (long[] w : windows) {
                long[] planned = PLAN[(int) w[0]];
                String what = String.format("window %d: start %.3f ms late, %.3f ms long (planned %d), uncertainty %d/%d ns",
                        w[0], (w[2] - w[1]) / 1e6, (w[3] - w[2]) / 1e6, planned[1], w[5], w[6]);
                System.out.println("FreezeIT JDK " + jdk + " " + what);
                assertThat(w[1]).as(what).isEqualTo(armedAt + planned[0] * MS);
                assertThat(w[2] - w[1]).as(what).isBetween(0L, 2 * MS);
                assertThat(w[3] - w[2] - planned[1] * MS).as(what).isBetween(-2 * MS, 2 * MS);
                assertThat(w[4]).as("held: %s", what).isZero();
                assertThat(w[5]).as(what).isBetween(1L, MS);
            }
            assertThat(admin.get("/health").body()).contains("\"freeze\":\"available\"").doesNotContain("freeze_failure");

            // a window whose start is past when the controller hands it over (offset 0, inside its 20 ms lead):
            // the freezing thread stops as it sets the stop timer, and the window runs from then, as long (a
            // second window keeps the plan within the API's cap of half its horizon stalled)
            long lateArmedAt = admin.arm("{\"kind\":\"freeze\",\"stalls\":[{\"offset_ms\":0,\"duration_ms\":" + LATE_MS
                    + "},{\"offset_ms\":300,\"duration_ms\":20}]}");
            await("the late window and the next").atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    windows(admin.get("/stalls?run_id=" + admin.lastRunId()).body())).as("/health: %s", admin.get("/health").body())
                    .hasSize(2));
            long[] late = windows(admin.get("/stalls?run_id=" + admin.lastRunId()).body()).get(0);
            String what = String.format("the late window: start %.3f ms after the arm, %.3f ms long (planned %d)",
                    (late[2] - lateArmedAt) / 1e6, (late[3] - late[2]) / 1e6, LATE_MS);
            System.out.println("FreezeIT JDK " + jdk + " " + what);
            assertThat(late[2] - late[1]).as(what).isNotNegative();
            assertThat(late[3] - late[2] - LATE_MS * MS).as(what).isBetween(-2 * MS, 2 * MS);
            assertThat(admin.get("/health").body()).doesNotContain("freeze_failure");
            if (jdk == 25) {
                assertThat(app.stderrLines()).anyMatch(line -> line.contains("System::load has been called by com.sun.jna.Native"));
            }
        }
    }

    private static String planJson() {
        StringBuilder json = new StringBuilder("{\"kind\":\"freeze\",\"stalls\":[");
        for (int i = 0; i < PLAN.length; i++) {
            json.append(i == 0 ? "" : ",").append("{\"offset_ms\":").append(PLAN[i][0]).append(",\"duration_ms\":")
                    .append(PLAN[i][1]).append('}');
        }
        return json.append("]}").toString();
    }

    /** Each freeze row of {@code /stalls}: index, planned start, start, end, held, start and end uncertainty. */
    private static List<long[]> windows(String body) {
        List<long[]> rows = new ArrayList<>();
        Matcher m = WINDOW.matcher(body);
        while (m.find()) {
            long[] row = new long[7];
            for (int i = 0; i < row.length; i++) {
                row[i] = Long.parseLong(m.group(i + 1));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Sends {@code GET /health} and waits 50 ms for the first byte of an answer. */
    private static void askHealth(URI admin) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(admin.getHost(), admin.getPort()), 1_000); // the kernel accepts
            socket.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: " + admin.getAuthority() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.setSoTimeout(50);
            InputStream in = socket.getInputStream();
            in.read();
        }
    }

    /** The state letter of {@code /proc/PID/stat} (after the command name, which may hold spaces). */
    private static char state(long pid) throws IOException {
        return stateOf(Path.of("/proc/" + pid + "/stat"));
    }

    private static char stateOf(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.charAt(line.lastIndexOf(')') + 2);
    }

    private static List<Character> threadStates(long pid) throws IOException {
        List<Character> states = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                states.add(stateOf(task.resolve("stat")));
            }
        }
        return states;
    }

    private static String children(long pid) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                all.append(Files.readString(task.resolve("children")).strip());
            }
        }
        return all.toString();
    }
}
