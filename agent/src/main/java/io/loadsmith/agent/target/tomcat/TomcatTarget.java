package io.loadsmith.agent.target.tomcat;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Tomcat 9 to 11, embedded or not (Spring Boot's default server). Entry:
 * {@code CoyoteAdapter#service(Request, Response)}. Response: {@code org.apache.coyote.Response#commit()}
 * (Tomcat 11) or {@code #sendHeaders()} (9 and 10), which send the status line and headers, and
 * {@code #doWrite(ByteBuffer)}, which carries every body write.
 */
public final class TomcatTarget {

    private TomcatTarget() {
    }

    public static Target target() {
        return new Target("tomcat", "Tomcat 9-11 (embedded, Spring Boot)",
                List.of("org/apache/catalina/connector/CoyoteAdapter.class"),
                List.of(
                        Gate.enter("org.apache.catalina.connector.CoyoteAdapter",
                                named("service").and(takesArguments(2)),
                                "service(Request, Response)").withResponseArgument(1),
                        Gate.enter("org.apache.coyote.Response",
                                named("commit").or(named("sendHeaders")).and(takesArguments(0))
                                        .or(named("doWrite").and(takesArguments(1))),
                                "commit()/sendHeaders()/doWrite(ByteBuffer)")));
    }
}
