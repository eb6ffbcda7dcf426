package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first fallback of the gate's definition in the bootstrap loader, Byte Buddy's
 * {@code ClassInjector.UsingUnsafe} (forced with {@code -Dloadsmith.agent.gate-injection=byte-buddy}),
 * meets the stall contract on the JDK server, whose classes the platform loader defines.
 */
class GateInjectedByByteBuddyIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.JdkHttpApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected String target() { return "jdkhttp"; }
    @Override protected String expectedGate() { return "sun.net.httpserver.ServerImpl$Exchange#run"; }
    @Override protected List<String> extraJvmArgs() { return List.of("-Dloadsmith.agent.gate-injection=byte-buddy"); }
    @Override protected String agentOptions() { return "admin=127.0.0.1:0,log=debug"; }

    @Test
    void the_gate_was_defined_by_byte_buddy_and_nothing_was_appended_to_the_bootstrap_path() {
        assertThat(app.stderrLines()).anyMatch(line -> line.contains("gate in the bootstrap loader (byte-buddy)"));
        assertThat(app.output()).doesNotContain(AbstractAppCdsIT.APPENDED_WARNING);
    }
}
