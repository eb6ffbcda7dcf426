package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a Jetty 9.4 service that has served traffic. */
class AttachJetty94IT extends Jetty94StallIT {
    @Override protected boolean viaAttach() { return true; }
}
