package io.loadsmith.agent.target.netty;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.notBridge;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Netty 4.1 and 4.2 HTTP/1.x servers (Reactor Netty, Vert.x, Micronaut, plain Netty). Entry:
 * {@code HttpRequestDecoder#createMessage}, called once the request line is decoded; Vert.x decodes with
 * a subclass of its own that replaces that method without calling it ({@code VertxHttpRequestDecoder},
 * in {@code io.vertx.core.http.impl} up to 5.0 and in its {@code http1} package from 5.1), gated likewise.
 * Response: {@code HttpResponseEncoder#encodeInitialLine}, called before the status line is written
 * (Vert.x's encoder keeps it). All run on the channel's event loop, so a stall holds the event loop
 * itself, exactly as a blocked event loop would: every connection served by it waits.
 */
public final class NettyTarget {

    private NettyTarget() {
    }

    public static Target target() {
        return new Target("netty", "Netty 4.1-4.2 HTTP servers (Reactor Netty, Vert.x, Micronaut)",
                List.of("io/netty/handler/codec/http/HttpRequestDecoder.class",
                        "io/netty/handler/codec/http/HttpResponseEncoder.class"),
                List.of(
                        createMessage("io.netty.handler.codec.http.HttpRequestDecoder"),
                        createMessage("io.vertx.core.http.impl.VertxHttpRequestDecoder"),
                        createMessage("io.vertx.core.http.impl.http1.VertxHttpRequestDecoder"),
                        Gate.enter("io.netty.handler.codec.http.HttpResponseEncoder",
                                named("encodeInitialLine").and(notBridge()),
                                "encodeInitialLine(ByteBuf, HttpResponse)")));
    }

    /** The entry gate on a decoder's {@code createMessage(String[])}, called once a request line is decoded. */
    private static Gate createMessage(String decoder) {
        return Gate.enter(decoder, named("createMessage"), "createMessage(String[])");
    }
}
