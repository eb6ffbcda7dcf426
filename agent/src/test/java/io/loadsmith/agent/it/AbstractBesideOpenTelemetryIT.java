package io.loadsmith.agent.it;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Our agent beside the OpenTelemetry Java agent (2.10.0, copied to target/otel by the build) on one Jetty 12
 * service: the stall contract of {@link AbstractServerStallIT} holds, the tracing agent still exports a span
 * for each request, a held one included (its logging exporter prints each span on the service's output), and
 * neither agent's classes are visible from the other's class loader, nor from the service's. With our
 * {@code trace-header=on} and the tracing agent told to capture that response header, the held request's span
 * carries our gate's {@code recv} and {@code sent} (the hold). One JVM per case: each subclass loads the two
 * agents in one order.
 */
abstract class AbstractBesideOpenTelemetryIT extends AbstractServerStallIT {

    static final Path OTEL_AGENT = Paths.get(System.getProperty("loadsmith.otel.agent", "target/otel/opentelemetry-javaagent.jar"));
    private static final String SPAN = " SERVER [tracer: io.opentelemetry.jetty-12.0:";

    /** True: OpenTelemetry's {@code -javaagent} comes before ours (always so when ours is attached). */
    protected abstract boolean openTelemetryFirst();

    @Override protected String mainClass() { return "io.loadsmith.agent.apps.TracedJetty12App"; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.Server#handle"; }
    @Override protected long startTimeoutMillis() { return 60_000; }

    @Override
    protected List<String> extraJvmArgs() {
        return openTelemetryFirst() || viaAttach() ? openTelemetryAgent() : List.of();
    }

    @Override
    protected List<String> jvmArgsAfterAgent() {
        return openTelemetryFirst() || viaAttach() ? List.of() : openTelemetryAgent();
    }

    @Override protected long trafficBeforeAttachMillis() { return 500; }
    @Override protected String agentOptions() { return "admin=127.0.0.1:0,trace-header=on"; }

    /**
     * The tracing agent with its logging exporter and nothing else exported (no collector needed), and only its
     * Jetty instrumentation: with all of them (its default) the app printed its port 4.3-11.2 s after its launch
     * on the shared build box, against 2.6-5.6 s with Jetty's alone (1.6-2.2 s without the agent), and three JVMs
     * of these tests cannot afford the difference. {@code -Dloadsmith.otel.all=true} runs them with all (they
     * pass so too).
     */
    private static List<String> openTelemetryAgent() {
        assertThat(Files.isRegularFile(OTEL_AGENT)).as("the build copies the OpenTelemetry agent to %s", OTEL_AGENT).isTrue();
        return List.of("-javaagent:" + OTEL_AGENT.toAbsolutePath(), "-Dotel.traces.exporter=logging",
                "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none", "-Dotel.service.name=beside-loadsmith",
                "-Dotel.instrumentation.common.default-enabled=" + System.getProperty("loadsmith.otel.all", "false"),
                "-Dotel.instrumentation.jetty.enabled=true",
                "-Dotel.instrumentation.http.server.capture-response-headers=Loadsmith-Replica");
    }

    @Test
    void a_request_held_by_a_stall_is_still_traced_once() throws Exception {
        try (RawHttp.Call held = RawHttp.prepare(port, "/held-by-stall")) {
            long armedAt = admin.armOne(200, 200);
            RawHttp.Timed reply = held.sendAt(armedAt + 250 * NANOS_PER_MILLI);
            List<Admin.Window> windows = admin.awaitStalls(armedAt + 5_000 * NANOS_PER_MILLI);

            assertThat(reply.status()).isEqualTo(200);
            assertThat(windows).hasSize(1);
            assertThat(windows.get(0).held()).isPositive();
            assertThat(reply.endNanos()).isGreaterThanOrEqualTo(windows.get(0).endNanos());
            assertThat(awaitSpans("/held-by-stall")).isEqualTo(1);
            String header = reply.header("Loadsmith-Replica");
            assertThat(header).as("our trace header").contains(";recv=").contains(";sent=");
            assertThat(spanLines("url.path=/held-by-stall", "http.response.header.loadsmith-replica=[" + header + "]"))
                    .as("spans of the held request carrying our header %s", header).isEqualTo(1);
        }
    }

    @Test
    void every_request_is_traced_once() throws Exception {
        for (int i = 1; i <= 3; i++) {
            assertThat(RawHttp.get(port, "/traced-" + i).status()).isEqualTo(200);
        }
        for (int i = 1; i <= 3; i++) {
            assertThat(awaitSpans("/traced-" + i)).as("spans of /traced-%d", i).isEqualTo(1);
        }
    }

    @Test
    void neither_agents_classes_are_visible_from_the_other_nor_unrelocated_from_the_service() throws Exception {
        // the service's own loader: each agent's copies of Byte Buddy, Jackson, the OpenTelemetry API are hidden
        assertLoadable("system", "net.bytebuddy.ByteBuddy", false);
        assertLoadable("system", "com.fasterxml.jackson.core.JsonFactory", false);
        assertLoadable("system", "io.loadsmith.stall.gate.StallGate", false);
        assertLoadable("system", "io.opentelemetry.api.trace.Span", false);
        assertLoadable("system", "io.opentelemetry.context.Context", false);
        assertLoadable("system", "io.opentelemetry.sdk.trace.SdkTracerProvider", false);
        assertLoadable("system", "io.loadsmith.agent.shaded.net.bytebuddy.ByteBuddy", true); // ours, relocated
        // the bootstrap loader: our gate and OpenTelemetry's bootstrap classes, nothing else of either
        assertLoadable("boot", "io.loadsmith.agent.shaded.stall.gate.StallGate", true);
        assertLoadable("boot", "io.opentelemetry.javaagent.bootstrap.AgentInitializer", true);
        assertLoadable("boot", "io.loadsmith.agent.shaded.net.bytebuddy.ByteBuddy", false);
        assertLoadable("boot", "io.opentelemetry.api.trace.Span", false);
        assertLoadable("boot", "net.bytebuddy.ByteBuddy", false);
        // OpenTelemetry's agent loader: its own Byte Buddy and API, none of our agent's classes (but for the gate,
        // which every loader sees in the bootstrap loader)
        assertLoadable("otel", "net.bytebuddy.ByteBuddy", true);
        assertLoadable("otel", "io.loadsmith.agent.LoadsmithAgent", false);
        assertLoadable("otel", "io.loadsmith.agent.shaded.net.bytebuddy.ByteBuddy", false);
        assertLoadable("otel", "io.loadsmith.agent.shaded.stall.control.StallController", false);
        assertLoadable("otel", "io.loadsmith.agent.shaded.stall.gate.StallGate", true);
    }

    private void assertLoadable(String from, String className, boolean loadable) throws Exception {
        RawHttp.Timed reply = RawHttp.get(port, "/loadable?class=" + className + "&from=" + from);
        assertThat(reply.body()).as("%s from the %s loader", className, from).isEqualTo(loadable ? "yes" : "no");
    }

    /** How many server spans of {@code path} the logging exporter has printed, once it printed one (at most 20 s). */
    private long awaitSpans(String path) {
        String attribute = "url.path=" + path;
        await("a span of " + path).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> spanLines(attribute) > 0);
        return spanLines(attribute);
    }

    /**
     * Server spans whose attributes hold every {@code key=value} given. The exporter prints them as a map
     * ({@code AttributesMap{data={a=1, b=2}, ...}}) in hash order, which changes with the set of keys a span has
     * (a span with {@code thread.name} lists them in another order than one without): a value ends at the comma
     * before the next attribute or at the closing brace of the last.
     */
    private long spanLines(String... attributes) {
        List<String> lines = new ArrayList<>(app.stderrLines());
        lines.addAll(app.stdoutLines());
        return lines.stream().filter(l -> l.contains(SPAN)
                && Arrays.stream(attributes).allMatch(a -> l.contains(a + ",") || l.contains(a + "}"))).count();
    }

}
