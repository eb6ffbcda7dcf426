package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The jetty9 target on its oldest version, Jetty 9.4 (javax.servlet). Jetty 9.4 cannot share the test
 * class path with Jetty 12, so the build copies its jars to target/jetty94 and this test compiles its app
 * against them.
 */
class Jetty94StallIT extends AbstractServerStallIT {
    private static final Path JARS = Paths.get(System.getProperty("loadsmith.jetty94", "target/jetty94"));

    @Override protected String mainClass() { return "Jetty94App"; }
    @Override protected List<String> libraries() { return List.of("/org/slf4j/"); }
    @Override protected String target() { return "jetty9"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.HttpChannel#sendResponse"; }

    @Override
    protected List<String> extraClassPath() {
        return CopiedServer.classPath(JARS, 5, "/jetty94/Jetty94App.java.txt", "Jetty94App");
    }
}
