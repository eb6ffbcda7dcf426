package io.loadsmith.agent.it;

/** Ours attached by PID to a service started with {@code -javaagent:opentelemetry-javaagent.jar}. */
class AttachBesideOpenTelemetryIT extends AbstractBesideOpenTelemetryIT {
    @Override protected boolean openTelemetryFirst() { return true; }
    @Override protected boolean viaAttach() { return true; }
}
