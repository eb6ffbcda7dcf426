package io.loadsmith.agent.it;

import java.util.List;

class Jetty12TraceHeaderIT extends AbstractTraceHeaderIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Jetty12App"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.Server#handle"; }
}
