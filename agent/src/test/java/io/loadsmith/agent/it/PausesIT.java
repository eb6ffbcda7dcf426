package io.loadsmith.agent.it;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The agent observes the real pauses of the service it is attached to from an arm to the end of its run
 * (observe=armed, the default) and serves them at {@code GET /pauses}: before the arm no observer thread
 * runs and no JFR recording is open (seen from outside, with jcmd); once armed, a collection forced from
 * outside ({@code jcmd PID GC.run}) is a safepoint window inside a {@code System.nanoTime()} bracket taken
 * around the jcmd call (the service and this test share the host's monotonic clock).
 */
class PausesIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";
    private static final Pattern SAFEPOINT = Pattern.compile(
            "\\{\"index\":(\\d+),\"source\":\"safepoint\",\"label\":\"([^\"]*)\",\"start_ns\":(\\d+),\"end_ns\":(\\d+),"
                    + "\"operation\":(?:\"[^\"]*\"|null),\"gc\":(\"[^\"]*\"|null)");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    record Safepoint(long index, String label, long startNanos, long endNanos, String gc) {
    }

    private static ChildJvm start(String agentOptions) throws Exception {
        List<String> jvmArgs = new ArrayList<>(AbstractServerStallIT.baseJvmArgs());
        jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + agentOptions);
        return ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs, List.of(), APP);
    }

    @Test
    void from_an_arm_on_a_gc_forced_with_jcmd_shows_up_in_pauses_inside_its_bracket() throws Exception {
        try (ChildJvm app = start("admin=127.0.0.1:0")) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);
            admin.awaitPrepared(); // the first call has JFR started once and stopped ahead of the first run
            awaitNoObserverThread(app);
            assertThat(admin.get("/health").body()).contains("\"pauses\":{\"observing\":true,\"mode\":\"armed\",\"running\":false,\"jfr\":\"idle\"");
            assertThat(jcmd(app.pid(), "JFR.check")).contains("No available recordings");

            admin.armOne(600_000, 10); // its one stall ten minutes on: armed, between stalls
            awaitHealth(admin, "\"running\":true,\"jfr\":\"on\"");
            assertThat(jcmd(app.pid(), "Thread.print")).contains("\"loadsmith-pause-sleeper\"", "\"loadsmith-pause-jfr\"");
            long beforeNanos = System.nanoTime();
            jcmd(app.pid(), "GC.run");
            long afterNanos = System.nanoTime();

            Safepoint gc = awaitSafepoint(admin, beforeNanos, afterNanos);
            String health = admin.get("/health").body();
            String metrics = admin.get("/metrics").body();

            assertThat(gc.gc()).as("%s", gc).contains("SerialOld");
            assertThat(health).containsPattern("\"pauses\":\\{\"observing\":true,\"mode\":\"armed\",\"running\":true,\"jfr\":\"on\",\"safepoints\":[1-9]");
            assertThat(health).containsPattern("\"sleeper_park_ms\":1,\"records_kept\":[1-9][0-9]*,\"records_max\":100000,\"jfr_memory\":\\{\"state\":\"set\"");
            assertThat(metrics).containsPattern("\nloadsmith_pauses_total\\{source=\"safepoint\"\\} [1-9]");
        }
    }

    /** {@code sleeper=20ms} reaches the observer: its sleeper parks 20 ms, as {@code /health} says. */
    @Test
    void the_sleeper_option_sets_the_sleepers_park() throws Exception {
        try (ChildJvm app = start("admin=127.0.0.1:0,observe=always,sleeper=20ms")) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);

            assertThat(admin.get("/health").body()).contains("\"mode\":\"always\",\"running\":true,", "\"sleeper_park_ms\":20,");
        }
    }

    /** Polls the app's threads until none of the observer's is left (the prepare thread ends after its JFR start). */
    private static void awaitNoObserverThread(ChildJvm app) {
        await("no observer thread left, disarmed").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> jcmd(app.pid(), "Thread.print"), threads -> !threads.contains("\"loadsmith-pause-"));
    }

    private static void awaitHealth(Admin admin, String part) {
        await("/health saying " + part).atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
                .until(() -> admin.get("/health").body(), body -> body.contains(part));
    }

    @Test
    void with_observe_off_pauses_answers_an_empty_page_and_says_so() throws Exception {
        try (ChildJvm app = start("admin=127.0.0.1:0,observe=off")) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);

            Admin.Reply pauses = admin.get("/pauses");

            assertThat(pauses.status()).isEqualTo(200);
            assertThat(pauses.body()).startsWith("{\"observing\":false,\"jfr\":\"off\",\"next_index\":0,\"more\":false,\"dropped\":0,\"pauses\":[]}");
            assertThat(admin.get("/health").body()).contains("\"pauses\":{\"observing\":false}");
            assertThat(admin.get("/metrics").body()).doesNotContain("loadsmith_pauses_total");
        }
    }

    private static String jcmd(long pid, String command) throws Exception {
        Path jcmd = ChildJvm.currentJavaHome().resolve("bin").resolve("jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    /** Polls {@code GET /pauses} (JFR delivers up to ~2 s late); on a timeout the message shows the last page. */
    private static Safepoint awaitSafepoint(Admin admin, long fromNanos, long toNanos) {
        String body = await("a collection inside [" + fromNanos + ", " + toNanos + "]").atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> admin.get("/pauses").body(), page -> collectionInside(page, fromNanos, toNanos).isPresent());
        return collectionInside(body, fromNanos, toNanos).orElseThrow();
    }

    private static Optional<Safepoint> collectionInside(String pauses, long fromNanos, long toNanos) {
        Matcher m = SAFEPOINT.matcher(pauses);
        while (m.find()) {
            Safepoint s = new Safepoint(Long.parseLong(m.group(1)), m.group(2), Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)), m.group(5));
            if (s.startNanos() >= fromNanos && s.endNanos() <= toNanos && !s.gc().equals("null")) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
