package io.loadsmith.agent.target.undertow;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Undertow 2.x (and WildFly, Quarkus' servlet layer on it). Entry:
 * {@code Connectors#executeRootHandler(HttpHandler, HttpServerExchange)}, which runs every request's
 * handler chain. Response: {@code HttpServerExchange#startResponse()}, which every response passes once
 * before its status line is written.
 */
public final class UndertowTarget {

    private UndertowTarget() {
    }

    public static Target target() {
        return new Target("undertow", "Undertow 2.x",
                List.of("io/undertow/server/Connectors.class"),
                List.of(
                        Gate.enter("io.undertow.server.Connectors",
                                named("executeRootHandler").and(takesArguments(2)),
                                "executeRootHandler(HttpHandler, HttpServerExchange)").withResponseArgument(1),
                        Gate.enter("io.undertow.server.HttpServerExchange",
                                named("startResponse").and(takesArguments(0)),
                                "startResponse()")));
    }
}
