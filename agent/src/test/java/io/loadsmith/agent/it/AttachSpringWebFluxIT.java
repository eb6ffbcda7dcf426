package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a Spring Boot 3 WebFlux service that has served traffic. */
class AttachSpringWebFluxIT extends SpringWebFluxStallIT {
    @Override protected boolean viaAttach() { return true; }
}
