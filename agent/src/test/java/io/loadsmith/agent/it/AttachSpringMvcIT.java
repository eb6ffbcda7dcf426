package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a Spring Boot 3 MVC service that has served traffic. */
class AttachSpringMvcIT extends SpringMvcStallIT {
    @Override protected boolean viaAttach() { return true; }
}
