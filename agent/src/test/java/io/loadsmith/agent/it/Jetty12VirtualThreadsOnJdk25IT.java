package io.loadsmith.agent.it;

import java.util.List;

/** Jetty 12 handing its handlers to virtual threads, gated by the {@code jetty12} target, on JDK 25. */
class Jetty12VirtualThreadsOnJdk25IT extends AbstractVirtualThreadsIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Jetty12VirtualThreadsApp"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
}
