package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the agent promises about its admin API, each on a JDK HttpServer app in a child JVM. */
class AdminSafetyIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";

    private static ChildJvm start(String options) throws Exception {
        return ChildJvm.start(ChildJvm.currentJavaHome(),
                List.of("-Xmx128m", "-XX:+UseSerialGC", "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + options), List.of(), APP);
    }

    @Test
    void with_a_token_the_admin_api_answers_401_without_it_and_200_with_it_and_token_random_writes_it_to_a_0600_file() throws Exception {
        Path dir = Files.createTempDirectory("loadsmith-token");
        Path file = dir.resolve("sub").resolve("token");
        try (ChildJvm app = start("admin=127.0.0.1:0,token=random,token-file=" + file)) {
            String url = app.adminUrl();
            String logged = app.awaitStderr("admin token written to (\\S+)", 30_000);
            String token = Files.readString(file).strip();

            assertThat(logged).isEqualTo(file.toString());
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(token).hasSize(32);
            assertThat(new Admin(url, null).get("/health").status()).isEqualTo(401);
            assertThat(new Admin(url, "wrong").get("/health").status()).isEqualTo(401);
            assertThat(new Admin(url, token).get("/health").status()).isEqualTo(200);
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
            assertThat(app.awaitStderr("(loadsmith agent: inert: the admin API cannot listen on 127.0.0.1:" + taken.getLocalPort() + ".*)", 30_000))
                    .contains("the service runs on untouched");
        }
    }
}
