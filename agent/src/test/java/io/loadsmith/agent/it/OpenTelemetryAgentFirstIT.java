package io.loadsmith.agent.it;

/** {@code -javaagent:opentelemetry-javaagent.jar -javaagent:loadsmith-agent.jar}. */
class OpenTelemetryAgentFirstIT extends AbstractBesideOpenTelemetryIT {
    @Override protected boolean openTelemetryFirst() { return true; }
}
