package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into the Vert.x 4.5 Web service (Quarkus 3's line) that has served traffic. */
class AttachVertx4WebIT extends Vertx4WebStallIT {
    @Override protected boolean viaAttach() { return true; }
}
