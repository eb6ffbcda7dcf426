package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The stall contract in a Spring Boot 3 MVC service on its embedded Tomcat (a {@code @RestController};
 * examples/frameworks/spring-boot-mvc, whose class path holds Boot's own versions, never the test's).
 */
class SpringMvcStallIT extends AbstractServerStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.spring-boot-mvc",
            "../examples/frameworks/spring-boot-mvc/target"));

    @Override protected String mainClass() { return "io.loadsmith.examples.spring.mvc.MvcApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected List<String> classPath() { return CopiedServer.frameworkClassPath(MODULE); }
    @Override protected long startTimeoutMillis() { return 120_000; }
    @Override protected String target() { return "tomcat"; }
    @Override protected String expectedGate() { return "org.apache.catalina.connector.CoyoteAdapter#service"; }
}
