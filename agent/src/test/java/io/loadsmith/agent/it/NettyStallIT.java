package io.loadsmith.agent.it;

import java.util.List;

class NettyStallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.NettyApp"; }
    @Override protected List<String> libraries() { return List.of("/io/netty/"); }
    @Override protected String target() { return "netty"; }
    @Override protected String expectedGate() { return "io.netty.handler.codec.http.HttpResponseEncoder#encodeInitialLine"; }
    /** A held event loop also holds every connection it serves: two late requests may share one hold. */
    @Override protected int minimumHeld() { return 1; }
}
