package io.loadsmith.tester.session;

import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.PauseProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link PauseRecording} against a real admin API and pause observer in this JVM: each System.gc() the test
 * makes is a {@code gc} pause of the profile at its moment, the file on disk has it before the recording ends,
 * and an agent that restarts (a new observer on the same port: its indices start again) is read again from its
 * first pause, keeping those already recorded.
 */
class PauseRecordingIT {

    @TempDir
    Path dir;

    @Test
    void records_each_collection_as_it_goes_and_across_a_restart_of_the_agent() throws Exception {
        Path out = dir.resolve("profile.json");
        StringWriter log = new StringWriter();
        PauseObserver firstObserver = PauseObserver.start(Clock.system());
        AdminServer first = agent(0, firstObserver);
        int port = first.address().getPort();
        PauseRecording recording = new PauseRecording(AdminClient.of(URI.create("http://127.0.0.1:" + port), null), out,
                new PrintWriter(log, true));
        CompletableFuture<PauseProfile> done = CompletableFuture.supplyAsync(() -> {
            try {
                return recording.run(Duration.ofSeconds(60).toNanos(), Duration.ofMillis(200).toNanos());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(out)); // started: offset 0 is taken
        long[] gc1 = collect();
        await().atMost(Duration.ofSeconds(10)).until(() -> gcPausesIn(out) >= 1); // written before the end

        first.close();
        firstObserver.close();
        PauseObserver secondObserver = PauseObserver.start(Clock.system());
        AdminServer second = agent(port, secondObserver);
        long[] gc2 = collect();
        await().atMost(Duration.ofSeconds(10)).until(() -> gcPausesIn(out) >= 2);
        recording.stop();
        PauseProfile profile = done.get();
        second.close();
        secondObserver.close();

        assertThat(log.toString()).contains("the agent restarted").contains("kept ");
        assertThat(profile.origin().kind()).isEqualTo("agent");
        assertThat(profile.origin().start()).isEqualTo("recording-start");
        for (long[] bracket : List.of(gc1, gc2)) {
            double before = (bracket[0] - recording.startNanos()) / 1e6;
            double after = (bracket[1] - recording.startNanos()) / 1e6;
            assertThat(profile.pauses()).as("a gc pause inside System.gc() at %.1f-%.1f ms", before, after)
                    .anySatisfy(p -> {
                        assertThat(p.source()).isEqualTo("gc");
                        assertThat(p.label()).contains("System.gc()");
                        assertThat(p.offsetMs()).isBetween(before - 1, after);
                        assertThat(p.offsetMs() + p.durationMs()).isLessThanOrEqualTo(after + 1);
                    });
        }
        assertThat(profile.pauses()).isSortedAccordingTo((a, b) -> Double.compare(a.offsetMs(), b.offsetMs()));
        assertThat(PauseProfiles.read(out)).isEqualTo(profile);
    }

    private static AdminServer agent(int port, PauseObserver observer) {
        return AdminServer.start(AdminConfig.builder().host("127.0.0.1").port(port).pauses(observer).build(),
                new StallController(Clock.system(), new StallGate()));
    }

    /** A full collection; its [before, after] on nanoTime (the agent's clock: it runs in this JVM). */
    private static long[] collect() {
        long before = System.nanoTime();
        System.gc();
        return new long[] {before, System.nanoTime()};
    }

    private static long gcPausesIn(Path out) throws Exception {
        if (!Files.exists(out)) {
            return 0;
        }
        return PauseProfiles.read(out).pauses().stream().filter(p -> p.label().contains("System.gc()")).count();
    }
}
