package io.loadsmith.agent.target.jetty12;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArgument;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Jetty 12.0 and later (core API; also Javalin 7 and every ee8-ee11 web app on Jetty 12). Entry:
 * {@code Server#handle(Request, Response, Callback)}, which runs for every request (the abstract
 * {@code Handler.Abstract#handle} never runs). Response: {@code HttpChannelState.ChannelResponse#write},
 * the one method every response write and the commit pass through.
 */
public final class Jetty12Target {

    private Jetty12Target() {
    }

    public static Target target() {
        return new Target("jetty12", "Jetty 12.x core (Javalin 7, Jetty ee8-ee11 web apps)",
                List.of("org/eclipse/jetty/server/internal/HttpChannelState.class",
                        "org/eclipse/jetty/server/Request$Handler.class"),
                List.of(
                        Gate.enter("org.eclipse.jetty.server.Server",
                                named("handle").and(takesArguments(3))
                                        .and(takesArgument(0, "org.eclipse.jetty.server.Request")),
                                "handle(Request, Response, Callback)").withResponseArgument(1),
                        Gate.enter("org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse",
                                named("write").and(takesArguments(3)),
                                "write(boolean, ByteBuffer, Callback)")));
    }
}
