package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract every server target must meet, checked on a real server in a child JVM with the real,
 * shaded agent jar: one explicit 300 ms stall, armed through the admin API, holds a request sent 150 ms
 * into it and a request already in flight at its start until the window ends, delays nothing sent before
 * it, and is reported by {@code /stalls} as one window of 300 ms with what it held. Each server is a
 * small subclass ({@link #mainClass()}, {@link #libraries()}, {@link #target()}); one whose clients speak
 * another protocol than HTTP/1.1 sends the contract's requests its own way ({@link #prepare(String)}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractServerStallIT {

    static final long NANOS_PER_MILLI = 1_000_000L;
    /**
     * How much longer than planned a recorded window may be: its end is read when the controller thread
     * wakes, which on a shared 2-core box under load (load average 15-18 while these tests were written)
     * came up to 12 ms late. The benchmark gives the real distribution (docs/benchmarks.md).
     */
    static final double LATE_END_TOLERANCE_MILLIS = 25.0;
    /** How early a held request may end before the window's length has passed (clock reads, rounding). */
    static final double EARLY_TOLERANCE_MILLIS = 2.0;

    protected ChildJvm app;
    protected int port;
    protected Admin admin;
    protected String adminUrl;

    /** The test app's main class (in {@code io.loadsmith.agent.apps}). */
    protected abstract String mainClass();

    /** Fragments of the jar paths of the app's server library (its only class path besides the app). */
    protected abstract List<String> libraries();

    /** Jars outside the test class path that the app also needs (none by default). */
    protected List<String> extraClassPath() {
        return List.of();
    }

    /** The app's whole class path: by default the test classes, the {@link #libraries()} jars and {@link #extraClassPath()}. */
    protected List<String> classPath() {
        List<String> classPath = new ArrayList<>(ChildJvm.classPath(libraries()));
        classPath.addAll(extraClassPath());
        return classPath;
    }

    /** JVM options of the app besides heap, GC and the agent (none by default). */
    protected List<String> extraJvmArgs() {
        return List.of();
    }

    /** JVM options after the agent's {@code -javaagent} (none by default): another agent loaded after ours. */
    protected List<String> jvmArgsAfterAgent() {
        return List.of();
    }

    /** The target that must have matched, as {@code /health} names it. */
    protected abstract String target();

    /** A gate {@code /health} must list for that target ({@code a.b.Class#method}). */
    protected abstract String expectedGate();

    /** Agent options (the admin port is always {@code 0}: any free one). */
    protected String agentOptions() {
        return "admin=127.0.0.1:0";
    }

    /** The least {@code held} count of the window: the in-flight and the late request, each held once. */
    protected int minimumHeld() {
        return 2;
    }

    /** The JDK the app runs on. */
    protected Path javaHome() {
        return ChildJvm.currentJavaHome();
    }

    /** How long the app may take to print its port (a framework that scans and wires a context takes longer). */
    protected long startTimeoutMillis() {
        return 30_000;
    }

    /** True: start the app without the agent, serve traffic, then {@code attach PID}. */
    protected boolean viaAttach() {
        return false;
    }

    /** How long the app serves traffic before the attach (attach only). */
    protected long trafficBeforeAttachMillis() {
        return 3_000;
    }

    /** What the launcher printed on stderr (attach only). */
    protected String launcherStderr = "";

    /** One request of the contract, made ready in advance (its connection open), sent at a given time and timed. */
    protected interface PreparedRequest extends AutoCloseable {
        RawHttp.Timed sendAt(long sendAtNanos) throws Exception;
    }

    /**
     * Makes the request for {@code path} ({@code /fast} or {@code /slow?ms=N}: N ms of work) ready: by
     * default an HTTP/1.1 GET on a connection of its own.
     */
    protected PreparedRequest prepare(String path) throws Exception {
        RawHttp.Call call = RawHttp.prepare(port, path);
        return new PreparedRequest() {
            @Override
            public RawHttp.Timed sendAt(long sendAtNanos) throws Exception {
                return call.sendAt(sendAtNanos);
            }

            @Override
            public void close() throws Exception {
                call.close();
            }
        };
    }

    /** The status of a request the server answered as it should: HTTP's 200 by default. */
    protected int okStatus() {
        return 200;
    }

    private RawHttp.Timed send(String path) throws Exception {
        try (PreparedRequest request = prepare(path)) {
            return request.sendAt(System.nanoTime());
        }
    }

    @BeforeAll
    void setupServer() throws Exception {
        assumeTrue(Files.isExecutable(ChildJvm.javaOf(javaHome())),
                "skipped: no JDK at " + javaHome() + " (this test needs it installed)");
        List<String> jvmArgs = new ArrayList<>(baseJvmArgs());
        jvmArgs.addAll(extraJvmArgs());
        if (!viaAttach()) {
            jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + agentOptions());
        }
        jvmArgs.addAll(jvmArgsAfterAgent());
        app = ChildJvm.startOnClassPath(javaHome(), jvmArgs, classPath(), mainClass());
        port = app.appPort(startTimeoutMillis());
        if (viaAttach()) {
            long until = System.nanoTime() + trafficBeforeAttachMillis() * NANOS_PER_MILLI;
            while (System.nanoTime() < until) {
                send("/fast");
            }
            ChildJvm.Result attached = ChildJvm.launcher(javaHome(), "attach", String.valueOf(app.pid()), agentOptions());
            launcherStderr = attached.stderr();
            assertThat(attached.exitCode()).as("launcher: %s %s\n%s", attached.stdout(), attached.stderr(), app.output()).isZero();
            Matcher m = Pattern.compile("admin API at (http://\\S+)").matcher(attached.stdout());
            assertThat(m.find()).as(attached.stdout()).isTrue();
            adminUrl = m.group(1);
        } else {
            adminUrl = app.adminUrl();
        }
        admin = new Admin(adminUrl, null);
        admin.awaitPrepared();
        for (int i = 0; i < 20; i++) {
            assertThat(send("/fast").status()).isEqualTo(okStatus());
            assertThat(send("/slow?ms=1").status()).isEqualTo(okStatus());
        }
    }

    /**
     * Heap and GC options every app runs with. {@code MetaspaceSize} lifts the first class-metadata
     * threshold: the Helidon app on JDK 25 crossed the default one during the contract test in CI, and its
     * full collection (a 130 ms safepoint, "Metadata GC Threshold", seen in the app's pauses) lay over the
     * window's planned start, which then opened 33-77 ms late. The tests are about the gate, not the app's
     * first class-loading collections.
     */
    static List<String> baseJvmArgs() {
        return List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:MetaspaceSize=256m", "-Dsun.net.httpserver.nodelay=true");
    }

    @AfterAll
    void stopServer() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void health_lists_the_target_and_the_classes_it_gated() throws Exception {
        Admin.Reply health = admin.get("/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()).contains("\"" + target() + "\":[\"").contains(expectedGate());
    }

    /**
     * How late the window may open and the test still mean what it says. The controller opens it
     * microseconds after its planned start when it gets a core; on a busy 2-core box it has waited up to
     * 67 ms for one (docs/benchmarks.md, "Stall timing"), and this test in CI saw 33-77 ms on a Helidon app on
     * JDK 25 (the one case whose pauses were logged: the app's own full GC over the planned start, see
     * {@link #baseJvmArgs()}). The in-flight request's work ends, and the request sent into the
     * window goes, 150 ms into the planned window: half-way, so that the window may open up to 150 ms late,
     * and the test's own sender may be up to 150 ms late (this JVM's pauses), and both are still held.
     */
    static final double START_LATENESS_LIMIT_MILLIS = 120.0;
    /** A lateness the test's output explains even when the test passes (the app's pauses then). */
    static final double NOTABLE_LATENESS_MILLIS = 20.0;

    /**
     * How long after the window's end a held request may end: its thread's wake-up and the response's
     * write, which wait for a core like the controller does. Short of a second hold (300 ms more).
     */
    static final double LATE_RELEASE_LIMIT_MILLIS = 250.0;

    @Test
    void a_300_ms_stall_holds_requests_sent_into_it_and_in_flight_at_its_start_and_nothing_before_it() throws Exception {
        ExecutorService senders = Executors.newFixedThreadPool(3);
        try (PreparedRequest before = prepare("/fast");
             PreparedRequest inFlight = prepare("/slow?ms=350");
             PreparedRequest during = prepare("/fast")) {
            long armedAt = admin.armOne(500, 300);

            Future<RawHttp.Timed> beforeReply = senders.submit(() -> before.sendAt(armedAt + 200 * NANOS_PER_MILLI));
            Future<RawHttp.Timed> inFlightReply = senders.submit(() -> inFlight.sendAt(armedAt + 300 * NANOS_PER_MILLI));
            Future<RawHttp.Timed> duringReply = senders.submit(() -> during.sendAt(armedAt + 650 * NANOS_PER_MILLI));
            RawHttp.Timed beforeTimed = beforeReply.get(10, TimeUnit.SECONDS);
            RawHttp.Timed inFlightTimed = inFlightReply.get(10, TimeUnit.SECONDS);
            RawHttp.Timed duringTimed = duringReply.get(10, TimeUnit.SECONDS);
            List<Admin.Window> windows = admin.awaitStalls(armedAt + 5_000 * NANOS_PER_MILLI);

            assertThat(windows).hasSize(1);
            Admin.Window window = windows.get(0);
            double lateness = (window.startNanos() - window.plannedStartNanos()) / 1e6;
            System.out.printf("%s: window opened %.3f ms after its planned start%n", getClass().getSimpleName(), lateness);
            Story story = new Story(armedAt, window, beforeTimed, inFlightTimed, duringTimed);
            if (lateness > NOTABLE_LATENESS_MILLIS) {
                System.out.println(story.about("a late window, within the limit").get()); // the log says why, pass or fail
            }
            assertThat(lateness).as(story.about("start lateness, ms")).isBetween(0.0, START_LATENESS_LIMIT_MILLIS);
            assertThat(window.durationMillis()).as(story.about("window length, ms")).isBetween(300.0 - EARLY_TOLERANCE_MILLIS, 300.0 + LATE_END_TOLERANCE_MILLIS);
            long heldUntil = Math.min(window.endNanos(), window.startNanos() + 300 * NANOS_PER_MILLI);

            assertThat(inFlightTimed.sentNanos()).as(story.about("in-flight request sent before the window")).isLessThan(window.startNanos());
            assertThat(duringTimed.sentNanos()).as(story.about("request sent into the window")).isBetween(window.startNanos(), window.endNanos());
            assertThat(window.held()).as(story.about("held")).isGreaterThanOrEqualTo(minimumHeld());

            assertThat(beforeTimed.status()).isEqualTo(okStatus());
            // sent 300 ms before the window: ending before it starts is what "not held" means here; how
            // long it took is the box's business (a 100 ms bound failed once at load 25)
            assertThat(beforeTimed.endNanos()).as(story.about("the request sent before the stall ended before it")).isLessThan(window.startNanos());

            assertThat(inFlightTimed.status()).isEqualTo(okStatus());
            assertThat((inFlightTimed.endNanos() - heldUntil) / 1e6)
                    .as(story.about("in-flight request's end after the window's end, ms")).isBetween(-EARLY_TOLERANCE_MILLIS, LATE_RELEASE_LIMIT_MILLIS);

            assertThat(duringTimed.status()).isEqualTo(okStatus());
            assertThat((duringTimed.endNanos() - heldUntil) / 1e6)
                    .as(story.about("request sent into the stall: end after the window's end, ms")).isBetween(-EARLY_TOLERANCE_MILLIS, LATE_RELEASE_LIMIT_MILLIS);
        } finally {
            senders.shutdownNow();
        }
    }

    /**
     * What a failed assertion of the contract test shows: when the window and each request began and ended,
     * in ms after the arm, and the app's observed pauses around the window (was the whole process stopped
     * or starved then, or only one thread?).
     */
    private final class Story {
        private final long armedAt;
        private final Admin.Window window;
        private final RawHttp.Timed before;
        private final RawHttp.Timed inFlight;
        private final RawHttp.Timed during;

        Story(long armedAt, Admin.Window window, RawHttp.Timed before, RawHttp.Timed inFlight, RawHttp.Timed during) {
            this.armedAt = armedAt;
            this.window = window;
            this.before = before;
            this.inFlight = inFlight;
            this.during = during;
        }

        Supplier<String> about(String what) {
            return () -> String.format("%s; ms after the arm: window planned %.1f, %.1f-%.1f, held %d; before %s; in flight %s;"
                            + " during %s; the app's pauses from 300 ms before the window to 300 ms after it: %s", what,
                    millis(window.plannedStartNanos()), millis(window.startNanos()), millis(window.endNanos()), window.held(),
                    span(before), span(inFlight), span(during),
                    admin.pausesBetween(window.plannedStartNanos() - 300 * NANOS_PER_MILLI, window.endNanos() + 300 * NANOS_PER_MILLI, armedAt));
        }

        private String span(RawHttp.Timed request) {
            return String.format("%.1f-%.1f (%d)", millis(request.sentNanos()), millis(request.endNanos()), request.status());
        }

        private double millis(long nanos) {
            return (nanos - armedAt) / 1e6;
        }
    }
}
