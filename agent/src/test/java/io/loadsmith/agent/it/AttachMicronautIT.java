package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a Micronaut 4 service that has served traffic. */
class AttachMicronautIT extends MicronautStallIT {
    @Override protected boolean viaAttach() { return true; }
}
