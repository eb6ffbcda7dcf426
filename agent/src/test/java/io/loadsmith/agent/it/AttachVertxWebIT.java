package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a Vert.x 5 Web service that has served traffic. */
class AttachVertxWebIT extends VertxWebStallIT {
    @Override protected boolean viaAttach() { return true; }
}
