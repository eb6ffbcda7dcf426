package io.loadsmith.agent;

import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.observe.JfrMemory;
import io.loadsmith.stall.observe.PauseObserver;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Starts the stall-service controller and admin API on the JVM-wide gate. Loaded only after the gate
 * classes are on the bootstrap path, so every stall-service class it names resolves there.
 */
final class AdminLink {

    private AdminLink() {
    }

    /** Starts the admin API and returns its base URL ({@code http://127.0.0.1:7070}). */
    static String start(AgentOptions options, String token, MatchRegistry registry, Instrumentation instrumentation) throws IOException {
        JfrMemory jfrMemory = null;
        if (options.smallJfrMemory()) {
            // JFR's own options where the module can be opened to one class of ours; else JFR.configure through JMX
            Optional<JfrMemory.Sizes> sizes = JfrOptionsLink.of(instrumentation);
            jfrMemory = sizes.isPresent() ? JfrMemory.small(sizes.get()) : JfrMemory.small();
        }
        PauseObserver pauses = switch (options.observe()) {
            case ARMED -> PauseObserver.whenArmed(Clock.system(), PauseObserver.DEFAULT_RUN_GRACE, options.sleeperPark(), jfrMemory);
            case ALWAYS -> PauseObserver.start(Clock.system(), options.sleeperPark(), jfrMemory);
            case OFF -> null;
        };
        // the observer's first JFR start waits for the first admin call (AdminRouter), off the host's start
        String replica = options.replica();
        AdminConfig config = AdminConfig.builder()
                .pauses(pauses)
                .host(options.adminHost())
                .port(options.adminPort())
                .token(token)
                .version(BuildInfo.current().version())
                .healthDetails(() -> {
                    Map<String, Object> details = new LinkedHashMap<>();
                    details.put("agent", "loadsmith-agent");
                    details.putAll(registry.healthDetails());
                    details.put("replica", replica);
                    details.put("trace_header", options.traceHeader() ? "on" : "off");
                    return details;
                })
                .armRefusal(() -> {
                    String reason = registry.armRefusal();
                    return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
                })
                .build();
        StallController controller = new StallController(Clock.system(), StallGate.global(), new NativeFreezer());
        AdminServer server;
        try {
            server = AdminServer.start(config, controller);
        } catch (UncheckedIOException e) {
            close(controller, pauses);
            throw e.getCause();
        } catch (IllegalArgumentException e) {
            close(controller, pauses);
            throw new IOException(e.getMessage(), e);
        }
        InetSocketAddress address = server.address();
        String host = address.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + address.getPort();
    }

    private static void close(StallController controller, PauseObserver pauses) {
        controller.close();
        if (pauses != null) {
            pauses.close();
        }
    }
}
