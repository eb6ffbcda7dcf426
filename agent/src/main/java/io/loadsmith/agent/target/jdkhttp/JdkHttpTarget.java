package io.loadsmith.agent.target.jdkhttp;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * The JDK's own {@code com.sun.net.httpserver} (module jdk.httpserver, loaded by the platform class
 * loader, which Byte Buddy's default ignore matcher skips: the agent uses its own). Entry:
 * {@code sun.net.httpserver.ServerImpl$Exchange#run()}; response:
 * {@code sun.net.httpserver.ExchangeImpl#sendResponseHeaders(int, long)}. The agent's own admin API runs
 * on this server too, on threads the gate exempts, so {@code /disarm} answers during a stall.
 */
public final class JdkHttpTarget {

    private JdkHttpTarget() {
    }

    public static Target target() {
        return new Target("jdkhttp", "the JDK's com.sun.net.httpserver (JDK 17+)",
                List.of(),
                List.of(
                        Gate.enter("sun.net.httpserver.ServerImpl$Exchange",
                                named("run").and(takesArguments(0)), "run()"),
                        Gate.enter("sun.net.httpserver.ExchangeImpl",
                                named("sendResponseHeaders").and(takesArguments(2)),
                                "sendResponseHeaders(int, long)")));
    }
}
