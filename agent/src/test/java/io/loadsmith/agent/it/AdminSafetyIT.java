package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the agent promises about its admin API, each on a JDK HttpServer app in a child JVM. */
class AdminSafetyIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";

    private static ChildJvm start(String options) throws Exception {
        return ChildJvm.start(ChildJvm.currentJavaHome(),
                List.of("-Xmx128m", "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + options), List.of(), APP);
    }

    @Test
    void with_a_token_the_admin_api_answers_401_without_it_and_200_with_it() throws Exception {
        try (ChildJvm app = start("admin=127.0.0.1:0,token=s3cret")) {
            String url = app.adminUrl();

            assertThat(new Admin(url, null).get("/health").status()).isEqualTo(401);
            assertThat(new Admin(url, "wrong").get("/health").status()).isEqualTo(401);
            assertThat(new Admin(url, "s3cret").get("/health").status()).isEqualTo(200);
        }
    }

    @Test
    void token_random_writes_a_0600_file_and_logs_where() throws Exception {
        Path dir = Files.createTempDirectory("loadsmith-token");
        Path file = dir.resolve("sub").resolve("token");
        try (ChildJvm app = start("admin=127.0.0.1:0,token=random,token-file=" + file)) {
            String url = app.adminUrl();
            String logged = app.awaitStderr("admin token written to (\\S+)", 5_000);
            String token = Files.readString(file).strip();

            assertThat(logged).isEqualTo(file.toString());
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(token).hasSize(32);
            assertThat(new Admin(url, null).get("/clock").status()).isEqualTo(401);
            assertThat(new Admin(url, token).get("/clock").status()).isEqualTo(200);
        }
    }

    @Test
    void arm_answers_409_when_no_target_matched_any_class() throws Exception {
        try (ChildJvm app = start("admin=127.0.0.1:0,targets=netty")) {
            String url = app.adminUrl();
            RawHttp.get(app.appPort(), "/fast");

            Admin.Reply reply = new Admin(url, null).post("/arm", "{\"stalls\":[{\"offset_ms\":500,\"duration_ms\":300}]}");

            assertThat(reply.status()).isEqualTo(409);
            assertThat(reply.body()).contains("nothing on a request path is instrumented: none of the enabled targets (netty)");
        }
    }

    @Test
    void when_the_admin_port_is_taken_the_service_runs_on_and_the_agent_says_it_is_inert() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             ChildJvm app = start("admin=127.0.0.1:" + taken.getLocalPort())) {
            int port = app.appPort();

            assertThat(RawHttp.get(port, "/fast").status()).isEqualTo(200);
            assertThat(app.awaitStderr("(loadsmith agent: inert: the admin API cannot listen on 127.0.0.1:" + taken.getLocalPort() + ".*)", 5_000))
                    .contains("the service runs on untouched");
        }
    }

    @Test
    void disarm_answers_during_a_stall_and_releases_the_held_request() throws Exception {
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try (ChildJvm app = start("admin=127.0.0.1:0")) {
            Admin admin = new Admin(app.adminUrl(), null);
            int port = app.appPort();
            RawHttp.get(port, "/fast");
            try (RawHttp.Call held = RawHttp.prepare(port, "/fast")) {
                // a 3 s stall, and a 1 ms one at 9 s so that the plan stalls less than half its horizon (the cap)
                long armedAt = admin.arm("{\"stalls\":[{\"offset_ms\":200,\"duration_ms\":3000},{\"offset_ms\":9000,\"duration_ms\":1}]}");
                Future<RawHttp.Timed> reply = sender.submit(() -> held.sendAt(armedAt + 300 * 1_000_000L));
                RawHttp.waitUntil(armedAt + 600 * 1_000_000L);

                long disarmSent = System.nanoTime();
                Admin.Reply disarm = admin.post("/disarm", "");
                long disarmAnswered = System.nanoTime();
                RawHttp.Timed timed = reply.get(10, TimeUnit.SECONDS);

                assertThat(disarm.status()).isEqualTo(200);
                assertThat((disarmAnswered - disarmSent) / 1_000_000).as("disarm round trip, ms").isLessThan(1_000);
                assertThat(timed.status()).isEqualTo(200);
                assertThat(timed.endNanos()).as("the held request ended after the disarm was sent").isGreaterThan(disarmSent);
                assertThat((timed.endNanos() - disarmSent) / 1_000_000).as("and soon after it, ms").isLessThan(1_000);
                List<Admin.Window> windows = admin.stalls();
                assertThat(windows).hasSize(1);
                assertThat(windows.get(0).held()).isEqualTo(1);
            }
        } finally {
            sender.shutdownNow();
        }
    }
}
