package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A server family no target gates: Helidon 4 SE's own web server, on JDK 25 (skipped, with that reason,
 * where it is not installed). The agent attaches, but no gate holds the service's requests (the JDK
 * server's gates, which the agent's own admin API brings, do not count), so {@code POST /arm} is refused
 * with 409 and a message that points to {@code method=CLASS#METHOD}; {@link HelidonMethodStallIT} then
 * shows that option at work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HelidonRefusalIT {

    private ChildJvm app;
    private Admin admin;
    private ChildJvm.Result attached;

    @BeforeAll
    void attachToAHelidonService() throws Exception {
        assumeTrue(Files.isExecutable(ChildJvm.javaOf(ChildJvm.JDK25)),
                "skipped: no JDK 25 at " + ChildJvm.JDK25 + " (Helidon 4 needs 21+; this test needs it installed)");
        app = ChildJvm.startOnClassPath(ChildJvm.JDK25, AbstractServerStallIT.baseJvmArgs(), HelidonMethodStallIT.helidonClassPath(),
                "HelidonApp");
        int port = app.appPort(120_000);
        for (int i = 0; i < 20; i++) {
            assertThat(RawHttp.get(port, "/fast").status()).isEqualTo(200);
        }
        attached = ChildJvm.launcher(ChildJvm.JDK25, "attach", String.valueOf(app.pid()), "admin=127.0.0.1:0");
        assertThat(attached.exitCode()).as("launcher: %s %s%n%s", attached.stdout(), attached.stderr(), app.output()).isZero();
        Matcher url = Pattern.compile("admin API at (http://\\S+)").matcher(attached.stdout());
        assertThat(url.find()).as(attached.stdout()).isTrue();
        admin = new Admin(url.group(1), null);
    }

    @AfterAll
    void stopTheService() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void arming_is_refused_with_409_and_a_message_that_points_to_the_method_option() throws Exception {
        Admin.Reply reply = admin.post("/arm", "{\"stalls\":[{\"offset_ms\":500,\"duration_ms\":300}]}");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.body())
                .contains("nothing on a request path is instrumented")
                .contains("the JDK HTTP server that jdkhttp gated serves only the agent's own admin API")
                .contains("method=CLASS#METHOD");
        assertThat(admin.get("/stalls").body()).doesNotContain("start_ns");
    }

    @Test
    void health_shows_the_admin_apis_jdk_server_gated_and_no_request_path_instrumented() throws Exception {
        String health = admin.get("/health").body();

        assertThat(health).contains("\"jdkhttp\":[\"sun.net.httpserver.ServerImpl$Exchange#run() (entry)\"")
                .contains("\"request_path_instrumented\":false");
        assertThat(List.of("jetty12", "jetty9", "servlet", "tomcat", "netty", "undertow"))
                .allSatisfy(target -> assertThat(health).contains("\"" + target + "\":[]"));
    }
}
