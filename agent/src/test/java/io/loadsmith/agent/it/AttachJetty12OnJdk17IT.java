package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stall contract through {@code attach PID} into a Jetty 12 service that has served traffic for 3 s (JDK 17). */
class AttachJetty12OnJdk17IT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Jetty12App"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse#write"; }
    @Override protected boolean viaAttach() { return true; }

    @Test
    void the_launcher_prints_no_dynamic_loading_note_on_jdk_17() {
        assertThat(launcherStderr).doesNotContain("EnableDynamicAgentLoading");
    }
}
