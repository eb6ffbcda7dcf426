package io.loadsmith.agent.it;

import java.util.List;

class JdkHttpStallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.JdkHttpApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected String target() { return "jdkhttp"; }
    @Override protected String expectedGate() { return "sun.net.httpserver.ServerImpl$Exchange#run"; }
}
