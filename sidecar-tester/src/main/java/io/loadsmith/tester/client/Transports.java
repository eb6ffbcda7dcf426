package io.loadsmith.tester.client;

import io.loadsmith.tester.client.jetty.JettyTransport;
import io.loadsmith.tester.client.netty.NettyTransport;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;

/**
 * The one place a real run gets its scheduler and HTTP transport ({@code run}, the demo, experiments).
 *
 * <pre>{@code
 * try (OpenTransport http = Transports.open(TransportOptions.connections(64))) {
 *     RunResult result = LoadRun.run(spec, http.scheduler(), http.transport(), source, runDir);
 * }
 * }</pre>
 */
public final class Transports {

    private Transports() {
    }

    /**
     * Opens the transport {@code options.kind()} names with its scheduler: {@link TransportOptions.Kind#NETTY}
     * runs the schedule on the event loop that owns the connections; {@link TransportOptions.Kind#JETTY} runs
     * Jetty's client beside a {@code SystemScheduler}, on HTTP/1.1 or, with {@link TransportOptions.Http#HTTP_2}
     * (which only Jetty speaks), HTTP/2.
     *
     * @throws IllegalStateException when the client cannot start (e.g. an unreadable CA file)
     */
    public static OpenTransport open(TransportOptions options) {
        return switch (options.kind()) {
            case NETTY -> NettyTransport.open(options);
            case JETTY -> JettyTransport.open(options);
        };
    }
}
