package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A server whose requests run on virtual threads, on JDK 25 (skipped, with that reason, where it is not
 * installed), with a carrier pool of {@value #CARRIERS} threads (it cannot grow) and, beside it in the
 * same JVM, a server the agent does not gate whose handlers are virtual threads on the same carriers.
 * A {@code block} stall parks the virtual threads it holds, so it holds more requests at once than there
 * are carriers while the ungated server still answers, and no {@code jdk.VirtualThreadPinned} event
 * comes from the gate. A {@code spin} stall busy-waits on the carriers: it holds only as many requests as
 * there are carriers, and the ungated server answers only after it ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractVirtualThreadsIT {

    static final int CARRIERS = 2;
    static final long NANOS_PER_MILLI = AbstractServerStallIT.NANOS_PER_MILLI;
    /**
     * Far enough ahead that the requests go out inside the window even when the reply to {@code POST /arm}
     * comes late (over 600 ms on the shared build box under load); the window must stay under half of the
     * plan's horizon (the admin API's cap).
     */
    private static final long STALL_OFFSET_MILLIS = 2_000;
    private static final long STALL_MILLIS = 1_500;

    private ChildJvm app;
    private int port;
    private int ungatedPort;
    private Admin admin;

    /** The test app's main class (in {@code io.loadsmith.agent.apps}). */
    protected abstract String mainClass();

    /** Fragments of the jar paths of the app's server library. */
    protected abstract List<String> libraries();

    /** The one target the agent enables ({@code targets=}), so the JDK server beside it is not gated. */
    protected abstract String target();

    @BeforeAll
    void startTheServers() throws Exception {
        assumeTrue(Files.isExecutable(ChildJvm.javaOf(ChildJvm.JDK25)),
                "skipped: no JDK 25 at " + ChildJvm.JDK25 + " (virtual threads need 21+; this test needs it installed)");
        List<String> jvmArgs = new ArrayList<>(AbstractServerStallIT.baseJvmArgs());
        jvmArgs.add("-Djdk.virtualThreadScheduler.parallelism=" + CARRIERS);
        jvmArgs.add("-Djdk.virtualThreadScheduler.maxPoolSize=" + CARRIERS);
        jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=admin=127.0.0.1:0,targets=" + target());
        app = ChildJvm.start(ChildJvm.JDK25, jvmArgs, libraries(), mainClass());
        port = app.appPort(120_000);
        ungatedPort = Integer.parseInt(app.awaitStdout("UNGATED=(\\d+)", 10_000));
        admin = new Admin(app.adminUrl(), null);
        for (int i = 0; i < 20; i++) {
            assertThat(RawHttp.get(port, "/fast").body()).isEqualTo("virtual");
            assertThat(RawHttp.get(ungatedPort, "/").body()).isEqualTo("virtual");
        }
    }

    @AfterAll
    void stopTheServers() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void a_block_stall_parks_more_requests_than_there_are_carriers_while_an_ungated_server_answers() throws Exception {
        assertThat(RawHttp.get(ungatedPort, "/pin").body()).isEqualTo("virtual");
        app.awaitStdout("PINNED .*PinsItsCarrier", 30_000);
        int heldRequests = 3 * CARRIERS;

        Stalled stalled = stallAndSend("block", heldRequests);

        Admin.Window window = stalled.window();
        assertThat(window.held()).as("requests held at once on %d carriers (%s)", CARRIERS, stalled).isEqualTo(heldRequests);
        long heldUntil = Math.min(window.endNanos(), window.startNanos() + STALL_MILLIS * NANOS_PER_MILLI);
        for (RawHttp.Timed gated : stalled.gated()) {
            assertThat(gated.body()).isEqualTo("virtual");
            assertThat(gated.sentNanos()).isBetween(window.startNanos(), window.endNanos());
            assertThat((gated.endNanos() - heldUntil) / 1e6).as("held request's end after the window's end, ms")
                    .isGreaterThanOrEqualTo(-AbstractServerStallIT.EARLY_TOLERANCE_MILLIS);
        }
        assertThat(stalled.ungated().body()).isEqualTo("virtual");
        assertThat(stalled.ungated().endNanos()).as("the ungated server answered inside the window").isLessThan(window.endNanos());
        assertThat(app.stdoutLines()).filteredOn(line -> line.startsWith("PINNED") && line.contains(".stall.gate."))
                .as("pinned virtual threads in the gate").isEmpty();
    }

    @Test
    void a_spin_stall_holds_only_as_many_requests_as_carriers_and_the_ungated_server_waits_for_its_end() throws Exception {
        Stalled stalled = stallAndSend("spin", 2 * CARRIERS);

        Admin.Window window = stalled.window();
        assertThat(window.held()).as("requests spinning, one on each carrier (%s)", stalled).isEqualTo(CARRIERS);
        long heldUntil = Math.min(window.endNanos(), window.startNanos() + STALL_MILLIS * NANOS_PER_MILLI);
        for (RawHttp.Timed gated : stalled.gated()) {
            assertThat(gated.status()).isEqualTo(200);
            assertThat((gated.endNanos() - heldUntil) / 1e6).as("request sent into the window: end after the window's end, ms")
                    .isGreaterThanOrEqualTo(-AbstractServerStallIT.EARLY_TOLERANCE_MILLIS);
        }
        assertThat(stalled.ungated().body()).isEqualTo("virtual");
        assertThat(stalled.ungated().sentNanos()).isBetween(window.startNanos(), window.endNanos());
        assertThat((stalled.ungated().endNanos() - heldUntil) / 1e6).as("the ungated server's answer after the window's end, ms")
                .isGreaterThanOrEqualTo(-AbstractServerStallIT.EARLY_TOLERANCE_MILLIS);
        System.out.printf("spin stall on %d carriers: ungated request sent %.0f ms into the %d ms window, answered %.1f ms after its end%n",
                CARRIERS, (stalled.ungated().sentNanos() - window.startNanos()) / 1e6, STALL_MILLIS,
                (stalled.ungated().endNanos() - heldUntil) / 1e6);
    }

    private record Stalled(Admin.Window window, List<RawHttp.Timed> gated, RawHttp.Timed ungated) {
        /** Each request's send and end in ms from the window's start, for a failure's message. */
        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("window ").append(window.durationMillis()).append(" ms; sent/ended at");
            for (RawHttp.Timed timed : gated) {
                text.append(' ').append(since(timed.sentNanos())).append('/').append(since(timed.endNanos()));
            }
            return text.append("; ungated ").append(since(ungated.sentNanos())).append('/').append(since(ungated.endNanos())).toString();
        }

        private long since(long nanos) {
            return (nanos - window.startNanos()) / NANOS_PER_MILLI;
        }
    }

    /**
     * Arms one stall of {@code kind}, sends {@code gatedCount} requests to the gated server 300 ms into it
     * and one to the ungated server 600 ms into it, and returns the window with what each request saw. The
     * window may open up to 300 ms late (a busy box) and the requests still go into it.
     */
    private Stalled stallAndSend(String kind, int gatedCount) throws Exception {
        ExecutorService senders = Executors.newFixedThreadPool(gatedCount + 1);
        List<RawHttp.Call> calls = new ArrayList<>();
        try {
            for (int i = 0; i < gatedCount; i++) {
                calls.add(RawHttp.prepare(port, "/fast"));
            }
            RawHttp.Call ungatedCall = RawHttp.prepare(ungatedPort, "/");
            calls.add(ungatedCall);
            long armedAt = admin.arm("{\"stalls\":[{\"offset_ms\":" + STALL_OFFSET_MILLIS + ",\"duration_ms\":" + STALL_MILLIS
                    + "}],\"kind\":\"" + kind + "\"}");
            long startNanos = armedAt + STALL_OFFSET_MILLIS * NANOS_PER_MILLI;
            List<Future<RawHttp.Timed>> gatedReplies = new ArrayList<>();
            for (RawHttp.Call call : calls.subList(0, gatedCount)) {
                gatedReplies.add(senders.submit(() -> call.sendAt(startNanos + 300 * NANOS_PER_MILLI)));
            }
            Future<RawHttp.Timed> ungatedReply = senders.submit(() -> ungatedCall.sendAt(startNanos + 600 * NANOS_PER_MILLI));
            List<RawHttp.Timed> gated = new ArrayList<>();
            for (Future<RawHttp.Timed> reply : gatedReplies) {
                gated.add(reply.get(15, TimeUnit.SECONDS));
            }
            RawHttp.Timed ungated = ungatedReply.get(15, TimeUnit.SECONDS);
            List<Admin.Window> windows = admin.awaitStalls(startNanos + (STALL_MILLIS + 5_000) * NANOS_PER_MILLI);
            assertThat(windows).hasSize(1);
            return new Stalled(windows.get(0), gated, ungated);
        } finally {
            senders.shutdownNow();
            for (RawHttp.Call call : calls) {
                call.close();
            }
        }
    }
}
