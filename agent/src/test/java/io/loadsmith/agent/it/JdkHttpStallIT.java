package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JdkHttpStallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.JdkHttpApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected String target() { return "jdkhttp"; }
    @Override protected String expectedGate() { return "sun.net.httpserver.ServerImpl$Exchange#run"; }

    /** The admin API runs on the same JDK server as this app, on threads the gate exempts. */
    @Test
    void disarm_answers_during_a_stall_and_releases_the_held_request() throws Exception {
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try (RawHttp.Call held = RawHttp.prepare(port, "/fast")) {
            // a 3 s stall, and a 1 ms one at 9 s so that the plan stalls less than half its horizon (the cap)
            long armedAt = admin.arm("{\"stalls\":[{\"offset_ms\":200,\"duration_ms\":3000},{\"offset_ms\":9000,\"duration_ms\":1}]}");
            Future<RawHttp.Timed> reply = sender.submit(() -> held.sendAt(armedAt + 300 * NANOS_PER_MILLI));
            RawHttp.waitUntil(armedAt + 600 * NANOS_PER_MILLI);

            long disarmSent = System.nanoTime();
            Admin.Reply disarm = admin.post("/disarm", "");
            long disarmAnswered = System.nanoTime();
            RawHttp.Timed timed = reply.get(10, TimeUnit.SECONDS);

            assertThat(disarm.status()).isEqualTo(200);
            assertThat((disarmAnswered - disarmSent) / NANOS_PER_MILLI).as("disarm round trip, ms").isLessThan(1_000);
            assertThat(timed.status()).isEqualTo(200);
            assertThat(timed.endNanos()).as("the held request ended after the disarm was sent").isGreaterThan(disarmSent);
            assertThat((timed.endNanos() - disarmSent) / NANOS_PER_MILLI).as("and soon after it, ms").isLessThan(1_000);
            assertThat(admin.stalls()).hasSize(1).first().extracting(Admin.Window::held).isEqualTo(1L);
        } finally {
            sender.shutdownNow();
        }
    }
}
