package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The stall contract in a Vert.x 5 Web service (a {@code Router} on Vert.x's own HTTP server, as Quarkus
 * serves HTTP; examples/frameworks/vertx-web, on the Netty version Vert.x brings). Vert.x decodes requests
 * with a decoder of its own ({@code VertxHttpRequestDecoder}, which replaces Netty's {@code createMessage}),
 * gated by the {@code netty} target beside Netty's; the stall holds the event loop, as in {@link NettyStallIT}.
 */
class VertxWebStallIT extends AbstractServerStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.vertx-web", "../examples/frameworks/vertx-web/target"));

    @Override protected String mainClass() { return "io.loadsmith.examples.vertx.VertxWebApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    /** The examples/frameworks module whose build holds the app and its class path. */
    protected Path module() { return MODULE; }
    @Override protected List<String> classPath() { return CopiedServer.frameworkClassPath(module()); }
    @Override protected String target() { return "netty"; }
    @Override protected String expectedGate() { return "io.vertx.core.http.impl.VertxHttpRequestDecoder#createMessage"; }
    /** A held event loop also holds every connection it serves: two late requests may share one hold. */
    @Override protected int minimumHeld() { return 1; }
}
