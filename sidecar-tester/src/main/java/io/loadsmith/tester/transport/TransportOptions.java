package io.loadsmith.tester.transport;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@link Transports#open} builds: which HTTP client, how many connections, its timeouts and TLS trust.
 *
 * @param kind                the HTTP client: {@link Kind#NETTY} (the default) or {@link Kind#JETTY}
 * @param connections         the open model's pool size (>= 1); closed and paced testers have one
 *                            connection per virtual user whatever this says (Netty), or a pool this big (Jetty)
 * @param timeoutNanos        whole-exchange timeout, from the send call (a wait for a connection included)
 * @param connectTimeoutNanos TCP connect timeout (and, for https, the TLS handshake with it)
 * @param tls                 how https:// servers are trusted
 */
public record TransportOptions(Kind kind, int connections, long timeoutNanos, long connectTimeoutNanos, Tls tls) {

    public static final long DEFAULT_TIMEOUT_NANOS = 30_000_000_000L;
    public static final long DEFAULT_CONNECT_TIMEOUT_NANOS = 5_000_000_000L;

    /** The HTTP client behind the transport ({@code target.transport} in a scenario). */
    public enum Kind {
        /** HTTP/1.1 on Netty event loops that also run the schedule ({@code transport.netty}). */
        NETTY,
        /** Jetty's HttpClient ({@code transport.http.JettyTransport}) on the {@code SystemScheduler}. */
        JETTY;

        /** The name in scenario files: {@code netty}, {@code jetty}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Trust for https:// targets: the JDK's default trust store unless one of these is set.
     *
     * @param insecure trust any certificate and any host name (a staging server's self-signed certificate)
     * @param caFile   a PEM file of the CA certificates to trust instead of the JDK's; null for none
     */
    public record Tls(boolean insecure, Path caFile) {
        public static final Tls DEFAULT = new Tls(false, null);

        public Tls {
            if (insecure && caFile != null) {
                throw new IllegalArgumentException("give insecure or a CA file, not both");
            }
        }
    }

    public TransportOptions {
        if (kind == null || tls == null) {
            throw new IllegalArgumentException("kind and tls must not be null");
        }
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be >= 1 (got " + connections + ")");
        }
        if (timeoutNanos <= 0 || connectTimeoutNanos <= 0) {
            throw new IllegalArgumentException("timeouts must be > 0");
        }
    }

    /** The default transport (Netty), 30 s timeout, 5 s connect timeout, default trust, a pool of n. */
    public static TransportOptions connections(int n) {
        return new TransportOptions(Kind.NETTY, n, DEFAULT_TIMEOUT_NANOS, DEFAULT_CONNECT_TIMEOUT_NANOS, Tls.DEFAULT);
    }

    public TransportOptions withKind(Kind value) {
        return new TransportOptions(value, connections, timeoutNanos, connectTimeoutNanos, tls);
    }

    public TransportOptions withTimeoutNanos(long nanos) {
        return new TransportOptions(kind, connections, nanos, connectTimeoutNanos, tls);
    }

    public TransportOptions withConnectTimeoutNanos(long nanos) {
        return new TransportOptions(kind, connections, timeoutNanos, nanos, tls);
    }

    public TransportOptions withTls(Tls value) {
        return new TransportOptions(kind, connections, timeoutNanos, connectTimeoutNanos, value);
    }
}
