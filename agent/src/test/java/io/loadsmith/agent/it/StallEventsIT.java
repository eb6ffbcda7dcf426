package io.loadsmith.agent.it;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service's own JFR recording ({@code -XX:StartFlightRecording} with JFR's default settings, and
 * {@code loadsmith.HeldRequest}, off by default, turned on from 0 ms) holds the stalls the agent injected:
 * after three stalls on a JDK-server app, the recording dumped with {@code jcmd PID JFR.dump} has one
 * {@code loadsmith.Stall} event per row of {@code GET /stalls}, with the same planned start, start, end and
 * held count, and one {@code loadsmith.HeldRequest} per hold, on the server's request thread.
 */
class StallEventsIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";
    private static final long MS = 1_000_000L;
    private static final String RUN_ID = "stall-events-it";
    private static final long[] OFFSETS_MILLIS = {300, 700, 1_100};
    private static final long DURATION_MILLIS = 150;

    @Test
    void the_services_recording_holds_one_stall_event_per_stalls_row_with_its_edges_and_held_count(@TempDir Path dir)
            throws Exception {
        List<String> jvmArgs = new ArrayList<>(AbstractServerStallIT.baseJvmArgs());
        jvmArgs.add("-XX:StartFlightRecording=name=service,settings=default,+loadsmith.HeldRequest#enabled=true,"
                + "+loadsmith.HeldRequest#threshold=0 ms");
        jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=admin=127.0.0.1:0");
        ExecutorService senders = Executors.newFixedThreadPool(OFFSETS_MILLIS.length * 2);
        try (ChildJvm app = ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs, List.of(), APP)) {
            int port = app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);
            admin.awaitPrepared();
            for (int i = 0; i < 10; i++) {
                assertThat(RawHttp.get(port, "/fast").status()).isEqualTo(200);
            }
            List<RawHttp.Call> calls = new ArrayList<>();
            for (int i = 0; i < OFFSETS_MILLIS.length * 2; i++) {
                calls.add(RawHttp.prepare(port, "/fast"));
            }
            StringBuilder plan = new StringBuilder("{\"run_id\":\"" + RUN_ID + "\",\"kind\":\"block\",\"stalls\":[");
            for (int i = 0; i < OFFSETS_MILLIS.length; i++) {
                plan.append(i == 0 ? "" : ",").append("{\"offset_ms\":").append(OFFSETS_MILLIS[i])
                        .append(",\"duration_ms\":").append(DURATION_MILLIS).append('}');
            }
            long armedAt = admin.arm(plan.append("]}").toString());
            List<Future<RawHttp.Timed>> replies = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                RawHttp.Call call = calls.get(i);
                long sendAt = armedAt + (OFFSETS_MILLIS[i / 2] + 40) * MS; // two requests 40 ms into each window
                replies.add(senders.submit(() -> call.sendAt(sendAt)));
            }
            for (Future<RawHttp.Timed> reply : replies) {
                assertThat(reply.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
            }
            List<Admin.Window> rows = await("three rows in /stalls").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(20)).until(admin::stalls, w -> w.size() == OFFSETS_MILLIS.length);
            for (RawHttp.Call call : calls) {
                call.close();
            }
            Path recording = dir.resolve("service.jfr");
            String dumped = jcmd(app.pid(), "JFR.dump", "name=service", "filename=" + recording);

            List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
            List<RecordedEvent> stalls = named(events, "loadsmith.Stall");
            List<RecordedEvent> holds = named(events, "loadsmith.HeldRequest");
            assertThat(stalls).as("loadsmith.Stall events (%s)", dumped).hasSize(rows.size());
            long heldInAll = 0;
            for (Admin.Window row : rows) {
                RecordedEvent stall = stalls.stream().filter(e -> e.getLong("plannedStartNanos") == row.plannedStartNanos())
                        .findFirst().orElseThrow(() -> new AssertionError("no loadsmith.Stall event for " + row + " in " + stalls));
                assertThat(stall.getString("runId")).isEqualTo(RUN_ID);
                assertThat(stall.getString("testerRunId")).isEqualTo(RUN_ID);
                assertThat(stall.getLong("startNanos")).isEqualTo(row.startNanos());
                assertThat(stall.getLong("endNanos")).isEqualTo(row.endNanos());
                assertThat(stall.getLong("held")).isEqualTo(row.held());
                assertThat(stall.getDuration()).isGreaterThanOrEqualTo(Duration.ofNanos(row.endNanos() - row.startNanos()));
                List<RecordedEvent> itsHolds = holds.stream().filter(h -> h.getLong("stallIndex") == stall.getLong("index")).toList();
                assertThat(itsHolds).as("loadsmith.HeldRequest events of %s", row).hasSize((int) row.held());
                for (RecordedEvent hold : itsHolds) {
                    assertThat(hold.getThread().getJavaName()).doesNotStartWith("loadsmith-");
                }
                heldInAll += row.held();
            }
            assertThat(heldInAll).as("requests held in the three windows").isPositive();
        } finally {
            senders.shutdownNow();
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    private static String jcmd(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(ChildJvm.currentJavaHome().resolve("bin").resolve("jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
