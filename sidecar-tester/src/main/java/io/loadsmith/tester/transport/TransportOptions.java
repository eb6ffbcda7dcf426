package io.loadsmith.tester.transport;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code client.Transports.open} builds: which HTTP client and HTTP version, how many connections, its timeouts
 * and TLS trust.
 *
 * @param kind                the HTTP client: {@link Kind#NETTY} (the default) or {@link Kind#JETTY}
 * @param connections         the open model's pool size (>= 1); closed and paced testers have one
 *                            connection per virtual user whatever this says (Netty), or a pool this big (Jetty;
 *                            on HTTP/2 the most connections, each carrying as many streams at once as the
 *                            server allows)
 * @param timeoutNanos        whole-exchange timeout, from the send call (a wait for a connection included)
 * @param connectTimeoutNanos TCP connect timeout (and, for https, the TLS handshake with it)
 * @param tls                 how https:// servers are trusted
 * @param http                the HTTP version: {@link Http#HTTP_1_1} (the default), or {@link Http#HTTP_2},
 *                            which only {@link Kind#JETTY} speaks
 * @param loops               event loops (>= 1, default 1), each with its own scheduler, transport and share of
 *                            the load ({@link OpenTransport#lanes()}); more than 1 only on {@link Kind#NETTY}
 */
public record TransportOptions(Kind kind, int connections, long timeoutNanos, long connectTimeoutNanos, Tls tls,
                               Http http, int loops) {

    public static final long DEFAULT_TIMEOUT_NANOS = 30_000_000_000L;
    public static final long DEFAULT_CONNECT_TIMEOUT_NANOS = 5_000_000_000L;

    /** The HTTP client behind the transport ({@code target.transport} in a scenario). */
    public enum Kind {
        /** HTTP/1.1 on Netty event loops that also run the schedule ({@code client.netty}). */
        NETTY,
        /** Jetty's HttpClient ({@code client.jetty.JettyTransport}) on the {@code SystemScheduler}. */
        JETTY;

        /** The name in scenario files: {@code netty}, {@code jetty}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The HTTP version spoken to the target ({@code target.http} in a scenario). */
    public enum Http {
        /** HTTP/1.1, on either transport. */
        HTTP_1_1("1.1"),
        /**
         * HTTP/2, on {@link Kind#JETTY} only: h2 negotiated by ALPN for https://, h2c with prior knowledge for
         * http://.
         */
        HTTP_2("2");

        private final String wireName;

        Http(String wireName) {
            this.wireName = wireName;
        }

        /** The name in scenario files and results.json: {@code 1.1}, {@code 2}. */
        public String wireName() {
            return wireName;
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
        if (kind == null || tls == null || http == null) {
            throw new IllegalArgumentException("kind, tls and http must not be null");
        }
        if (http == Http.HTTP_2 && kind != Kind.JETTY) {
            throw new IllegalArgumentException("HTTP/2 needs the jetty transport (got " + kind.wireName() + ")");
        }
        if (loops < 1) {
            throw new IllegalArgumentException("loops must be >= 1 (got " + loops + ")");
        }
        if (loops > 1 && kind != Kind.NETTY) {
            throw new IllegalArgumentException("more than one loop needs the netty transport (got " + kind.wireName()
                    + ")");
        }
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be >= 1 (got " + connections + ")");
        }
        if (timeoutNanos <= 0 || connectTimeoutNanos <= 0) {
            throw new IllegalArgumentException("timeouts must be > 0");
        }
    }

    /** The default transport (Netty, HTTP/1.1), 30 s timeout, 5 s connect timeout, default trust, a pool of n. */
    public static TransportOptions connections(int n) {
        return new TransportOptions(Kind.NETTY, n, DEFAULT_TIMEOUT_NANOS, DEFAULT_CONNECT_TIMEOUT_NANOS, Tls.DEFAULT,
                Http.HTTP_1_1, 1);
    }

    public TransportOptions withKind(Kind value) {
        return new TransportOptions(value, connections, timeoutNanos, connectTimeoutNanos, tls, http, loops);
    }

    /** These options with a pool of {@code n} (see {@link #connections()}). */
    public TransportOptions withConnections(int n) {
        return new TransportOptions(kind, n, timeoutNanos, connectTimeoutNanos, tls, http, loops);
    }

    public TransportOptions withTimeoutNanos(long nanos) {
        return new TransportOptions(kind, connections, nanos, connectTimeoutNanos, tls, http, loops);
    }

    public TransportOptions withConnectTimeoutNanos(long nanos) {
        return new TransportOptions(kind, connections, timeoutNanos, nanos, tls, http, loops);
    }

    public TransportOptions withTls(Tls value) {
        return new TransportOptions(kind, connections, timeoutNanos, connectTimeoutNanos, value, http, loops);
    }

    /** These options on {@code value} event loops (more than 1 needs {@link Kind#NETTY}). */
    public TransportOptions withLoops(int value) {
        return new TransportOptions(kind, connections, timeoutNanos, connectTimeoutNanos, tls, http, value);
    }

    /** These options on HTTP version {@code value}; {@link Http#HTTP_2} needs {@link Kind#JETTY} (set it first). */
    public TransportOptions withHttp(Http value) {
        return new TransportOptions(kind, connections, timeoutNanos, connectTimeoutNanos, tls, value, loops);
    }
}
