package io.loadsmith.agent.it;

import java.util.List;

/** No server target at all: only the method the user names is gated (at its start and its end). */
class MethodStallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.MethodApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected String agentOptions() { return "admin=127.0.0.1:0,targets=method,method=io.loadsmith.agent.apps.MethodApp#compute"; }
    @Override protected String target() { return "method"; }
    @Override protected String expectedGate() { return "io.loadsmith.agent.apps.MethodApp#compute(..) (entry and exit)"; }
}
