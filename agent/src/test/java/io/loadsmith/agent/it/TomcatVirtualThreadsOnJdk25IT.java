package io.loadsmith.agent.it;

import java.util.List;

/** Embedded Tomcat 11 with {@code useVirtualThreads}, gated by the {@code tomcat} target, on JDK 25. */
class TomcatVirtualThreadsOnJdk25IT extends AbstractVirtualThreadsIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.TomcatVirtualThreadsApp"; }
    @Override protected List<String> libraries() { return List.of("/org/apache/tomcat/"); }
    @Override protected String target() { return "tomcat"; }
}
