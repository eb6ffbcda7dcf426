package io.loadsmith.agent.it;

import java.util.List;

class UndertowStallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.UndertowApp"; }
    @Override protected List<String> libraries() { return List.of("/io/undertow/", "/org/jboss/", "/org/wildfly/", "/io/smallrye/"); }
    @Override protected String target() { return "undertow"; }
    @Override protected String expectedGate() { return "io.undertow.server.Connectors#executeRootHandler"; }
}
