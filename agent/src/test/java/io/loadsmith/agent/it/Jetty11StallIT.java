package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The jetty9 target (Jetty 9.4-11) on Jetty 11. Jetty 11 cannot share the test class path with Jetty 12,
 * so the build copies its jars to target/jetty11 and this test compiles its app against them.
 */
class Jetty11StallIT extends AbstractServerStallIT {
    private static final Path JARS = Paths.get(System.getProperty("loadsmith.jetty11", "target/jetty11"));

    @Override protected String mainClass() { return "Jetty11App"; }
    @Override protected List<String> libraries() { return List.of("/org/slf4j/"); }
    @Override protected String target() { return "jetty9"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.HttpChannel#sendResponse"; }

    @Override
    protected List<String> extraClassPath() {
        return CopiedServer.classPath(JARS, 5, "/jetty11/Jetty11App.java.txt", "Jetty11App");
    }
}
