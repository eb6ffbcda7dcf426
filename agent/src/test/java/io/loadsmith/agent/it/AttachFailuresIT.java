package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher's answers to the attach failures a user meets, on real JVMs. */
class AttachFailuresIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";

    @Test
    void a_jvm_started_with_attach_disabled_gets_a_message_and_exit_3() throws Exception {
        try (ChildJvm app = ChildJvm.start(ChildJvm.currentJavaHome(), List.of("-XX:+DisableAttachMechanism"), List.of(), APP)) {
            app.appPort();

            ChildJvm.Result result = ChildJvm.launcher(ChildJvm.currentJavaHome(), "attach", String.valueOf(app.pid()));

            assertThat(result.exitCode()).isEqualTo(3);
            assertThat(result.stderr()).contains("was started with -XX:+DisableAttachMechanism: it accepts no attach at all");
        }
    }

    @Test
    void a_jdk_25_jvm_that_refuses_dynamic_agents_gets_a_message_and_exit_3() throws Exception {
        assumeTrue(Files.isExecutable(ChildJvm.javaOf(ChildJvm.JDK25)), "skipped: no JDK 25 at " + ChildJvm.JDK25);
        try (ChildJvm app = ChildJvm.start(ChildJvm.JDK25, List.of("-XX:-EnableDynamicAgentLoading"), List.of(), APP)) {
            app.appPort();

            ChildJvm.Result result = ChildJvm.launcher(ChildJvm.JDK25, "attach", String.valueOf(app.pid()));

            assertThat(result.exitCode()).isEqualTo(3);
            assertThat(result.stderr()).contains("was started with -XX:-EnableDynamicAgentLoading: it refuses agents loaded while it runs");
        }
    }

    @Test
    void attaching_to_a_process_that_does_not_exist_says_so() throws Exception {
        ChildJvm.Result result = ChildJvm.launcher(ChildJvm.currentJavaHome(), "attach", "999999999");

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stderr()).contains("no process 999999999 on this host");
    }

    @Test
    void list_shows_a_running_jvm_by_pid_and_main_class() throws Exception {
        try (ChildJvm app = ChildJvm.start(ChildJvm.currentJavaHome(), List.of(), List.of(), APP)) {
            app.appPort();

            ChildJvm.Result result = ChildJvm.launcher(ChildJvm.currentJavaHome(), "list");

            assertThat(result.exitCode()).isZero();
            assertThat(result.stdout()).contains(app.pid() + "\t" + APP);
        }
    }
}
