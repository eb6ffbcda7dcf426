package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An app that ships its own, older Byte Buddy and Jackson (copied to target/other-versions by the build)
 * keeps using them with the agent loaded, and is still stalled.
 */
class OwnLibrariesIT extends AbstractServerStallIT {
    private static final Path OTHER = Paths.get(System.getProperty("loadsmith.other.versions", "target/other-versions"));

    @Override protected String mainClass() { return "io.loadsmith.agent.apps.OwnLibrariesApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected List<String> extraClassPath() {
        File[] jars = OTHER.toFile().listFiles((dir, name) -> name.endsWith(".jar"));
        assertThat(jars).as("jars in %s", OTHER).hasSize(2);
        return java.util.Arrays.stream(jars).map(File::getAbsolutePath).toList();
    }
    @Override protected String target() { return "jdkhttp"; }
    @Override protected String expectedGate() { return "sun.net.httpserver.ExchangeImpl#sendResponseHeaders"; }

    @Test
    void the_app_answers_with_its_own_byte_buddy_and_jackson() throws Exception {
        RawHttp.Timed reply = RawHttp.get(port, "/fast");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("{\"made\":\"made-by-app-bytebuddy\",\"bytebuddy\":\"byte-buddy-1.18.12.jar\","
                + "\"jackson\":\"jackson-core-2.21.3.jar\"}");
    }
}
