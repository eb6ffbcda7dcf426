package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The stall contract in a Micronaut 4 service (a {@code @Controller} on micronaut-http-server-netty;
 * examples/frameworks/micronaut, every version from the Micronaut platform BOM, Netty among them). Micronaut
 * decodes with Netty's own {@code HttpServerCodec}; the stall holds the event loop, as in {@link NettyStallIT}.
 */
class MicronautStallIT extends AbstractServerStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.micronaut", "../examples/frameworks/micronaut/target"));

    @Override protected String mainClass() { return "io.loadsmith.examples.micronaut.MicronautApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected List<String> classPath() { return CopiedServer.frameworkClassPath(MODULE); }
    @Override protected String target() { return "netty"; }
    @Override protected String expectedGate() { return "io.netty.handler.codec.http.HttpRequestDecoder#createMessage"; }
    /** A held event loop also holds every connection it serves: two late requests may share one hold. */
    @Override protected int minimumHeld() { return 1; }
}
