package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * What the agent instrumented: per target, the gates whose class was transformed. It answers
 * {@code /health} ({@link #healthDetails()}) and decides whether {@code /arm} is refused
 * ({@link #armRefusal()}: a stall that silently does nothing is refused). The {@code jdkhttp} target
 * counts only while the service runs a JDK HTTP server of its own: the agent's admin API runs on one,
 * so its gates are in place in every JVM. Thread-safe.
 */
final class MatchRegistry {

    /** The JDK server's target, whose gates the agent's own admin API makes match everywhere. */
    static final String JDK_HTTP = "jdkhttp";

    private final List<Target> enabled;
    private final BooleanSupplier serviceRunsJdkHttpServer;
    private final Map<String, List<Target>> pending = new LinkedHashMap<>();
    private final Map<String, Set<String>> gatedByTarget = new LinkedHashMap<>();
    private final Map<String, String> failures = new LinkedHashMap<>();

    MatchRegistry(List<Target> enabled) {
        this(enabled, () -> true);
    }

    /** {@code serviceRunsJdkHttpServer}: asked when the {@code jdkhttp} gates are in place (not on a request path). */
    MatchRegistry(List<Target> enabled, BooleanSupplier serviceRunsJdkHttpServer) {
        this.enabled = List.copyOf(enabled);
        this.serviceRunsJdkHttpServer = serviceRunsJdkHttpServer;
    }

    synchronized void matched(Target target, String typeName, ClassLoader loader) {
        pending.computeIfAbsent(typeName + "@" + System.identityHashCode(loader), k -> new ArrayList<>()).add(target);
    }

    synchronized void transformed(String typeName, ClassLoader loader) {
        List<Target> targets = pending.remove(typeName + "@" + System.identityHashCode(loader));
        if (targets == null) {
            return;
        }
        for (Target target : targets) {
            Set<String> gated = gatedByTarget.computeIfAbsent(target.name(), k -> new LinkedHashSet<>());
            for (Gate gate : target.gates()) {
                if (gate.typeName().equals(typeName)) {
                    gated.add(gate.describe());
                }
            }
        }
    }

    synchronized void failed(String typeName, Throwable throwable) {
        failures.put(typeName, String.valueOf(throwable));
    }

    /** True when at least one request-path gate is in place. */
    synchronized boolean anyGated() {
        return !gatedByTarget.isEmpty();
    }

    /** True when a gate in place holds the service's own requests (jdkhttp's only with a JDK server of its own). */
    private boolean servesTheService() {
        for (String target : gatedByTarget.keySet()) {
            if (!target.equals(JDK_HTTP) || serviceRunsJdkHttpServer.getAsBoolean()) {
                return true;
            }
        }
        return false;
    }

    /** Target name to the gates in place, for /health: {@code {"jetty12": ["...Server#handle(...) (entry)"]}}. */
    synchronized Map<String, Object> healthDetails() {
        Map<String, Object> targets = new LinkedHashMap<>();
        for (Target target : enabled) {
            Set<String> gated = gatedByTarget.get(target.name());
            targets.put(target.name(), gated == null ? List.of() : new ArrayList<>(gated));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("targets", targets);
        details.put("request_path_instrumented", servesTheService());
        if (!failures.isEmpty()) {
            details.put("failures", new LinkedHashMap<>(failures));
        }
        return details;
    }

    /** Empty when {@code /arm} may go ahead, else why it is refused (answered with 409). */
    synchronized String armRefusal() {
        if (servesTheService()) {
            return "";
        }
        List<String> names = new ArrayList<>();
        for (Target target : enabled) {
            names.add(target.name());
        }
        String onlyAdmin = gatedByTarget.containsKey(JDK_HTTP)
                ? " (the JDK HTTP server that jdkhttp gated serves only the agent's own admin API)" : "";
        return "nothing on a request path is instrumented: none of the enabled targets (" + String.join(", ", names)
                + ") matched a loaded class" + onlyAdmin + ", so a stall would hold no request. Send one request first if"
                + " the server loads its classes lazily, and check GET /health. A server the agent has no target for"
                + " (Helidon's own web server, for one) is gated through the method that handles its requests:"
                + " method=CLASS#METHOD, e.g. -javaagent:loadsmith-agent.jar=method=com.acme.Api#handle at the"
                + " service's next start (a second attach into this process changes nothing)";
    }
}
