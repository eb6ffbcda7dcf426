package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The stall contract in the same Vert.x Web service built on Vert.x 4.5, the line Quarkus 3 serves HTTP with
 * (examples/frameworks/vertx4-web, on Netty 4.1): its {@code VertxHttpRequestDecoder} has the name 5.0's has.
 */
class Vertx4WebStallIT extends VertxWebStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.vertx4-web", "../examples/frameworks/vertx4-web/target"));

    @Override protected Path module() { return MODULE; }
}
