package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The stall contract in a Spring Boot 3 WebFlux service on Reactor Netty (a {@code RouterFunction};
 * examples/frameworks/spring-boot-webflux, whose class path holds Boot's own versions, Netty 4.1 among
 * them). The {@code netty} target holds the event loop, as in {@link NettyStallIT}.
 */
class SpringWebFluxStallIT extends AbstractServerStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.spring-boot-webflux",
            "../examples/frameworks/spring-boot-webflux/target"));

    @Override protected String mainClass() { return "io.loadsmith.examples.spring.webflux.WebFluxApp"; }
    @Override protected List<String> libraries() { return List.of(); }
    @Override protected List<String> classPath() { return CopiedServer.frameworkClassPath(MODULE); }
    @Override protected long startTimeoutMillis() { return 120_000; }
    @Override protected String target() { return "netty"; }
    @Override protected String expectedGate() { return "io.netty.handler.codec.http.HttpResponseEncoder#encodeInitialLine"; }
    /** A held event loop also holds every connection it serves: two late requests may share one hold. */
    @Override protected int minimumHeld() { return 1; }
}
