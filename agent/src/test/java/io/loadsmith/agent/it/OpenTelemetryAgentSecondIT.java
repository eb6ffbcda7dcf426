package io.loadsmith.agent.it;

/** {@code -javaagent:loadsmith-agent.jar -javaagent:opentelemetry-javaagent.jar}. */
class OpenTelemetryAgentSecondIT extends AbstractBesideOpenTelemetryIT {
    @Override protected boolean openTelemetryFirst() { return false; }
}
