package io.loadsmith.agent.it;

import java.util.List;

class TomcatTraceHeaderIT extends AbstractTraceHeaderIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.TomcatApp"; }
    @Override protected List<String> libraries() { return List.of("/org/apache/tomcat/"); }
    @Override protected String target() { return "tomcat"; }
    @Override protected String expectedGate() { return "org.apache.catalina.connector.CoyoteAdapter#service"; }
}
