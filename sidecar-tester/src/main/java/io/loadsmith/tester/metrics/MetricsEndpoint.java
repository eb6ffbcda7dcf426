package io.loadsmith.tester.metrics;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.transport.TransportStats;
import io.prometheus.metrics.config.ExporterHttpServerProperties;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.exporter.httpserver.HttpErrorHandlingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's live metrics over HTTP ({@code GET /metrics}, OpenMetrics or the Prometheus text format as the
 * scraper asks; docs/watching.md), served by the Prometheus Java client's HTTP server on one daemon thread of
 * its own ({@code loadsmith-metrics}). Each scrape reads the run's {@link LiveStats}; the send loop never
 * waits for it.
 *
 * <pre>{@code
 * try (MetricsEndpoint metrics = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 9464), labels,
 *         control.live(), Clock.system())) {
 *     ... the run, with metrics.transport(http.stats()) once the transport is open ...
 *     ... then a few seconds more, so that the last scrapes see the final figures ...
 * }
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";

    private final HTTPServer server;
    private final ExecutorService thread;
    private final InetAddress address;
    private volatile TransportStats transport;
    private volatile boolean failedScrapeSeen;

    private MetricsEndpoint(LiveStats live, RunLabels labels, Clock clock, InetSocketAddress address)
            throws IOException {
        this.address = address.getAddress();
        // the JDK's HTTP server writes an answer's head and body apart: with Nagle on, the body waits for the
        // scraper's delayed ACK, 40 ms a scrape on Linux; read once, when the JDK's first HTTP server starts
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new LiveMetrics(live, labels, clock, () -> transport));
        thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "loadsmith-metrics");
            t.setDaemon(true);
            return t;
        });
        try {
            // uncompressed even when the scraper asks for gzip: gzip doubled a scrape's CPU (0.3-0.5 ms more),
            // taken beside the send loop, to save a few kB on what is mostly a loopback or in-pod hop
            PrometheusProperties config = PrometheusProperties.builder().exporterHttpServerProperties(
                    ExporterHttpServerProperties.builder().preferUncompressedResponse(true).build()).build();
            server = HTTPServer.builder(config).inetAddress(address.getAddress()).port(address.getPort())
                    .registry(registry).executorService(thread)
                    .errorHandlingPolicy(HttpErrorHandlingPolicy.builder().errorReporter(this::scrapeFailed).build())
                    .buildAndStart();
        } catch (IOException | RuntimeException e) {
            thread.shutdownNow();
            throw e;
        }
    }

    /**
     * Serves {@code live} at {@code address} (port 0: any free port, see {@link #uri()}).
     *
     * @throws IOException when the address cannot be bound (taken, not an address of this host)
     */
    public static MetricsEndpoint start(InetSocketAddress address, RunLabels labels, LiveStats live, Clock clock)
            throws IOException {
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve " + address.getHostString());
        }
        return new MetricsEndpoint(live, labels, clock, address);
    }

    /**
     * A scrape that could not be answered, most often a scraper that gave up waiting (its scrape timeout) and
     * closed the connection: one line at warning level for the first, at debug level after it; the run goes on.
     */
    private void scrapeFailed(Exception e) {
        if (!failedScrapeSeen) {
            failedScrapeSeen = true;
            LOG.warn("a scrape of the metrics could not be answered ({}); the run goes on, later ones are logged "
                    + "at debug level", e.toString());
        } else {
            LOG.debug("a scrape of the metrics could not be answered ({})", e.toString());
        }
    }

    /** From now on {@code loadsmith_tester_in_flight} reads these counts (the run's transport, once open). */
    public void transport(TransportStats counts) {
        this.transport = counts;
    }

    /** Where the metrics are served: {@code http://HOST:PORT/metrics}. */
    public URI uri() {
        String host = address.getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.getPort() + "/metrics");
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.close();
        thread.shutdownNow();
    }
}
