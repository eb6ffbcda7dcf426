package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Helidon 4 SE's own web server, which no target gates, on JDK 25 (skipped, with that reason, where it is
 * not installed): attached with {@code method=} on the handler its routes call ({@code HelidonApp#handle},
 * which holds a request before the app's work) and on the method that writes the response
 * ({@code Http1ServerResponse#send}, which holds a response: the handler sends it itself, so the end of
 * the handler would come too late), the stall contract holds. The app is compiled against
 * examples/frameworks/helidon-se's jars by JDK 25's javac.
 */
class HelidonMethodStallIT extends AbstractServerStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.helidon-se", "../examples/frameworks/helidon-se/target"));

    /** The class path of HelidonApp (compiled once per test JVM). */
    static List<String> helidonClassPath() {
        return CopiedServer.frameworkClassPathCompiledBy(ChildJvm.JDK25, MODULE, "/helidon/HelidonApp.java.txt", "HelidonApp");
    }

    @Override protected String mainClass() { return "HelidonApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected List<String> classPath() { return helidonClassPath(); }
    @Override protected Path javaHome() { return ChildJvm.JDK25; }
    @Override protected boolean viaAttach() { return true; }
    @Override protected String agentOptions() {
        return "admin=127.0.0.1:0,method=HelidonApp#handle,method=io.helidon.webserver.http1.Http1ServerResponse#send";
    }
    @Override protected String target() { return "method"; }
    @Override protected String expectedGate() { return "HelidonApp#handle(..) (entry and exit)"; }
}
