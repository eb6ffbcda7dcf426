package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stall contract through {@code attach PID} into a Jetty 12 service on JDK 25 (at
 * /usr/lib/jvm/temurin-25-jdk-amd64; skipped, with that reason, where it is not installed).
 */
class AttachJetty12OnJdk25IT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Jetty12App"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse#write"; }
    @Override protected boolean viaAttach() { return true; }
    @Override protected Path javaHome() { return ChildJvm.JDK25; }

    @Test
    void the_launcher_explains_the_jdk_21_dynamic_loading_warning() {
        assertThat(launcherStderr).contains("runs Java 25").contains("-XX:+EnableDynamicAgentLoading");
    }

    @Test
    void the_service_printed_the_jvm_warning_the_note_explains() {
        assertThat(app.stderrLines()).anyMatch(line -> line.contains("A Java agent has been loaded dynamically"));
    }
}
