package io.loadsmith.agent.target.jetty9;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArgument;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Jetty 9.4 to 11 (javax and jakarta; Javalin 4 to 6). Entry: {@code Server#handle(HttpChannel)}.
 * Response: {@code HttpChannel#sendResponse(MetaData.Response, ByteBuffer, boolean, Callback)}, which
 * commits the response and carries every write. The guard ({@code org.eclipse.jetty.server.HttpChannelState},
 * which moved to {@code server.internal} in Jetty 12) keeps it off Jetty 12.
 */
public final class Jetty9Target {

    private Jetty9Target() {
    }

    public static Target target() {
        return new Target("jetty9", "Jetty 9.4, 10 and 11 (Javalin 4-6)",
                List.of("org/eclipse/jetty/server/HttpChannelState.class"),
                List.of(
                        Gate.enter("org.eclipse.jetty.server.Server",
                                named("handle").and(takesArguments(1))
                                        .and(takesArgument(0, "org.eclipse.jetty.server.HttpChannel")),
                                "handle(HttpChannel)").withResponseArgument(0),
                        Gate.enter("org.eclipse.jetty.server.HttpChannel",
                                named("sendResponse").and(takesArguments(4)),
                                "sendResponse(MetaData.Response, ByteBuffer, boolean, Callback)")));
    }
}
