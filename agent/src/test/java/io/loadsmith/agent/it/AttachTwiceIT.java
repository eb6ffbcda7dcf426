package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code attach PID} twice into one Jetty 12 service: the second says the agent is already there and where
 * its admin API listens, and changes nothing; the inherited stall test then runs on the one set of gates.
 */
class AttachTwiceIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Jetty12App"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse#write"; }
    @Override protected boolean viaAttach() { return true; }

    private String healthBefore;
    private ChildJvm.Result second;

    @BeforeAll
    void attachAgain() throws Exception {
        healthBefore = gates(admin.get("/health").body());
        second = ChildJvm.launcher(javaHome(), "attach", String.valueOf(app.pid()), agentOptions());
    }

    @Test
    void the_second_attach_says_already_attached_and_where_the_admin_api_is() {
        assertThat(second.exitCode()).as(second.stdout() + second.stderr()).isZero();
        assertThat(second.stdout()).contains("loadsmith agent already attached (via attach); admin API at " + adminUrl
                + " in process " + app.pid() + "; nothing changed");
    }

    @Test
    void the_second_attach_loads_no_second_agent() throws Exception {
        Admin.Reply health = admin.get("/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(gates(health.body())).isEqualTo(healthBefore).contains(expectedGate());
        assertThat(app.stderrLines()).filteredOn(l -> l.contains("admin API on ")).hasSize(1);
    }

    @Test
    void a_second_javaagent_at_start_changes_nothing_and_says_the_agent_is_already_there() throws Exception {
        String agent = "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + agentOptions();
        List<String> jvmArgs = new ArrayList<>(baseJvmArgs());
        jvmArgs.add(agent);
        jvmArgs.add(agent);
        try (ChildJvm twice = ChildJvm.startOnClassPath(javaHome(), jvmArgs, classPath(), mainClass())) {
            int appPort = twice.appPort();
            Admin twiceAdmin = new Admin(twice.adminUrl(), null);
            twice.awaitStderr("already attached \\(via -javaagent\\); admin API at .*; the load via -javaagent changed nothing", 30_000);
            assertThat(RawHttp.get(appPort, "/fast").status()).isEqualTo(200);

            assertThat(gates(twiceAdmin.get("/health").body())).contains(expectedGate());
            assertThat(twice.stderrLines()).filteredOn(l -> l.contains("admin API on ")).hasSize(1);
        }
    }

    /** The {@code "targets":{...}} object of a {@code /health} body: which classes are gated. */
    private static String gates(String health) {
        Matcher m = Pattern.compile("\"targets\":\\{[^}]*}").matcher(health);
        assertThat(m.find()).as(health).isTrue();
        return m.group();
    }
}
