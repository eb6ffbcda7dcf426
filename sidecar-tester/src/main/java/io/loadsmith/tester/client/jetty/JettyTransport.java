package io.loadsmith.tester.client.jetty;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.grpc.GrpcHeaders;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.grpc.GrpcTarget;
import io.loadsmith.tester.grpc.GrpcTimeout;
import io.loadsmith.tester.scheduler.SystemScheduler;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.PemCertificates;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.ResponseCheck;
import io.loadsmith.tester.transport.ServedBy;
import io.loadsmith.tester.transport.Transport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.AbstractHttpClientTransport;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The real {@link Transport}: HTTP/1.1 or HTTP/2 over Jetty's {@link HttpClient}, with a kept-alive connection
 * pool of {@link JettyOptions#maxConnections()} connections per destination (host and port).
 *
 * <p><b>HTTP/2</b> ({@link TransportOptions.Http#HTTP_2}): Jetty's {@link HttpClientTransportOverHTTP2} over an
 * {@link HTTP2Client} on the same {@link ClientConnector}; {@code https://} negotiates {@code h2} by ALPN (the
 * JDK's, through jetty-alpn-java-client; a server that does not offer h2 fails every request with
 * {@link Outcome#OTHER}), {@code http://} speaks h2c with prior knowledge (no upgrade from HTTP/1.1). Requests
 * are streams multiplexed over a connection: the pool holds at most {@link JettyOptions#maxConnections()}
 * connections per destination, each carrying up to the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS}
 * requests at once; Jetty opens another connection only when none has a free stream (or while the first ones
 * are still connecting), so a run with fewer requests in flight than the server's stream limit usually runs
 * on one connection. Requests beyond connections &times; streams wait in Jetty's queue, as on HTTP/1.1.
 *
 * <p><b>Send time.</b> {@link Exchange#sent} gets the clock's time in Jetty's {@code Request.CommitListener}
 * ({@code onCommit}), which Jetty calls once the request line and headers (and a small body with them)
 * have been written to the socket. A request that waits for a free connection in Jetty's queue is
 * therefore timed from the moment its bytes left, not from {@link #send}; the wait shows up only in
 * corrected latency. ({@code onBegin} fires earlier, when a connection has been taken but before the
 * headers are generated and written.) On HTTP/2 {@code onCommit} comes once the stream's HEADERS frame (and
 * a small body's DATA frame with it) has been written; a request waiting for a free stream is timed the same
 * way. Jetty reports the commit once its write has completed, and the answer may be read first (on HTTP/2,
 * on another thread): the start of the response then marks the send, a little late. A request whose
 * connection failed before either is not reported as sent.
 *
 * <p><b>Outcomes.</b> Without a {@link ResponseCheck} a status below 400 is {@link Outcome#OK}, else
 * {@link Outcome#HTTP_STATUS}. With a check, the check decides: a failing check is {@link Outcome#HTTP_STATUS}
 * when the status is 400 or more, else {@link Outcome#CHECK_FAILED}. Failures without a whole response:
 * connection refused {@link Outcome#REFUSED}; reset or closed early, or on HTTP/2 a stream reset by the server
 * (RST_STREAM), {@link Outcome#RESET}; the per-request timeout or the connect timeout {@link Outcome#TIMEOUT};
 * {@link #cancelAll()} {@link Outcome#CANCELLED}; anything else {@link Outcome#OTHER} with the exception in the detail. Nothing a server does makes
 * {@link #send} throw. Every outcome is counted ({@link #count(Outcome)}).
 *
 * <p><b>gRPC.</b> A request to a {@code grpc://} or {@code grpcs://} URL is a unary gRPC call (docs/grpc.md): the
 * same POST to {@code http://} or {@code https://} (HTTP/2 is the caller's choice of options), timed by the same
 * listeners. Its outcome is read from the answer's {@code grpc-status} (the trailers', or the headers' of a
 * trailers-only answer; without one, from the HTTP status, {@link GrpcStatus#ofAnswer}): the check, if any, is
 * handed the gRPC status code and the framed answer; without a check, OK passes. A failure is
 * {@link Outcome#GRPC_STATUS} unless the status was OK ({@link Outcome#ofGrpc}), and then the exchange's status is
 * the gRPC status code instead of the HTTP status. A call's {@code grpc-timeout} (its deadline) is also its
 * timeout here: a call still unanswered then ends as {@link GrpcStatus#DEADLINE_EXCEEDED}, as gRPC's own clients
 * end it; so does a call whose stream the server reset once the deadline had passed (a grpc-java server cancels
 * a call at its deadline with RST_STREAM, which may come before the client's own timer).
 *
 * <p>Thread-safe. Exchanges are completed on Jetty's threads, usually its selector thread (the client's
 * invocation type is non-blocking, which saves a hand-off to a pool thread per response): an
 * {@link Exchange} and a {@link ResponseCheck} must not block. The body of a response is read and dropped
 * unless the request has a check, which then sees at most {@link JettyOptions#maxResponseBytes()} bytes.
 *
 * <pre>{@code
 * try (JettyTransport http = JettyTransport.start(Clock.system(), JettyTransport.JettyOptions.connections(16))) {
 *     http.send(RequestSpec.get(URI.create("http://127.0.0.1:8080/"), 0, 0), exchange);
 * }
 * }</pre>
 */
public final class JettyTransport implements Transport, TransportStats {

    /**
     * @param maxConnections      kept-alive connections per destination (>= 1); more requests wait in Jetty's queue
     * @param timeoutNanos        whole-exchange timeout from {@link #send}, including any wait for a connection
     * @param connectTimeoutNanos TCP connect timeout
     * @param maxResponseBytes    most body bytes kept for a check
     * @param threads             Jetty client threads (selector included)
     */
    public record JettyOptions(int maxConnections, long timeoutNanos, long connectTimeoutNanos, int maxResponseBytes,
                          int threads) {

        public static final long DEFAULT_TIMEOUT_NANOS = 30_000_000_000L;
        public static final long DEFAULT_CONNECT_TIMEOUT_NANOS = 5_000_000_000L;

        public JettyOptions {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be >= 1 (got " + maxConnections + ")");
            }
            if (timeoutNanos <= 0 || connectTimeoutNanos <= 0) {
                throw new IllegalArgumentException("timeouts must be > 0");
            }
            if (threads < 3) {
                throw new IllegalArgumentException("threads must be >= 3 (got " + threads + ")");
            }
        }

        /** Defaults (30 s timeout, 5 s connect timeout, 1 MiB for checks, 8 threads) for a pool of n connections. */
        public static JettyOptions connections(int n) {
            return new JettyOptions(n, DEFAULT_TIMEOUT_NANOS, DEFAULT_CONNECT_TIMEOUT_NANOS, 1 << 20, 8);
        }

        public JettyOptions withTimeoutNanos(long nanos) {
            return new JettyOptions(maxConnections, nanos, connectTimeoutNanos, maxResponseBytes, threads);
        }

        public JettyOptions withConnectTimeoutNanos(long nanos) {
            return new JettyOptions(maxConnections, timeoutNanos, nanos, maxResponseBytes, threads);
        }
    }

    private static final Outcome[] OUTCOMES = Outcome.values();
    /** The HTTP/2 error codes as Jetty words a stream reset ({@code cancel_stream_error}). */
    private static final Set<String> H2_ERROR_CODES = Arrays.stream(ErrorCode.values())
            .map(code -> ErrorCode.toString(code.code, null))
            .collect(Collectors.toUnmodifiableSet());

    private final Clock clock;
    private final JettyOptions options;
    private final HttpClient client;
    private final Set<Flight> inFlight = ConcurrentHashMap.newKeySet();
    private final LongAdder[] counts = new LongAdder[OUTCOMES.length];
    private final LongAdder sent = new LongAdder();
    private final AtomicBoolean closed = new AtomicBoolean();

    private JettyTransport(Clock clock, JettyOptions options, HttpClient client) {
        this.clock = clock;
        this.options = options;
        this.client = client;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /**
     * Starts a client. {@code clock} must be the scheduler's clock: send and end times are read from it.
     *
     * @throws IllegalStateException when Jetty's client cannot start
     */
    public static JettyTransport start(Clock clock, JettyOptions options) {
        return start(clock, options, TransportOptions.Tls.DEFAULT);
    }

    /**
     * Opens a {@link SystemScheduler} and a client on it with these options (the factory's Jetty choice,
     * {@code target.transport: jetty}).
     */
    public static OpenTransport open(TransportOptions options) {
        SystemScheduler scheduler = SystemScheduler.start();
        try {
            JettyTransport http = start(scheduler, JettyOptions.connections(options.connections())
                    .withTimeoutNanos(options.timeoutNanos())
                    .withConnectTimeoutNanos(options.connectTimeoutNanos()), options.tls(), options.http());
            return new OpenTransport(scheduler, http, http, scheduler);
        } catch (RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }

    /** {@link #start(Clock, JettyOptions)} trusting https:// servers as {@code tls} says. */
    public static JettyTransport start(Clock clock, JettyOptions options, TransportOptions.Tls tls) {
        return start(clock, options, tls, TransportOptions.Http.HTTP_1_1);
    }

    /** {@link #start(Clock, JettyOptions, TransportOptions.Tls)} speaking HTTP version {@code http}. */
    public static JettyTransport start(Clock clock, JettyOptions options, TransportOptions.Tls tls,
                                       TransportOptions.Http http) {
        QueuedThreadPool threads = new QueuedThreadPool(options.threads(), Math.min(options.threads(), 3));
        threads.setName("loadsmith-http");
        threads.setDaemon(true);
        ClientConnector connector = new ClientConnector();
        connector.setSelectors(1);
        connector.setTCPNoDelay(true);
        connector.setConnectTimeout(Duration.ofNanos(options.connectTimeoutNanos()));
        connector.setExecutor(threads);
        connector.setSslContextFactory(sslContextFactory(tls));
        AbstractHttpClientTransport transport = http == TransportOptions.Http.HTTP_2
                ? new HttpClientTransportOverHTTP2(new HTTP2Client(connector))
                : new HttpClientTransportOverHTTP(connector);
        // the listeners below never block (a completion is one compare-and-set into the scheduler's inbox),
        // so Jetty may run them on the selector thread instead of handing every response to a pool thread
        transport.setInvocationType(InvocationType.NON_BLOCKING);
        HttpClient client = new HttpClient(transport);
        client.setExecutor(threads);
        client.setMaxConnectionsPerDestination(options.maxConnections());
        client.setMaxRequestsQueuedPerDestination(Integer.MAX_VALUE);
        client.setConnectTimeout(TimeUnit.NANOSECONDS.toMillis(options.connectTimeoutNanos()));
        client.setIdleTimeout(0);
        client.setFollowRedirects(false);
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "loadsmith"));
        client.getContentDecoderFactories().clear(); // no Accept-Encoding: what the server sends is what is timed
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client: " + e.getMessage(), e);
        }
        return new JettyTransport(clock, options, client);
    }

    /** TLS trust as {@code tls} says (also {@link GrpcReflection}'s). */
    static SslContextFactory.Client sslContextFactory(TransportOptions.Tls tls) {
        SslContextFactory.Client ssl = new SslContextFactory.Client(tls.insecure());
        if (tls.insecure()) {
            ssl.setEndpointIdentificationAlgorithm(null);
        } else if (tls.caFile() != null) {
            try {
                ssl.setTrustStore(PemCertificates.trustStore(tls.caFile()));
            } catch (IOException e) {
                throw new IllegalStateException(tls.caFile() + " " + e.getMessage(), e);
            }
        }
        return ssl;
    }

    public JettyOptions options() {
        return options;
    }

    @Override
    public long sent() {
        return sent.sum();
    }

    @Override
    public long inFlight() {
        return inFlight.size();
    }

    /** Not counted for Jetty's pool: null. */
    @Override
    public ConnectionStats connections() {
        return null;
    }

    @Override
    public void send(RequestSpec spec, Exchange exchange) {
        Flight flight = new Flight(spec, exchange);
        if (closed.get()) {
            flight.finish(clock.nanoTime(), 0, Outcome.CANCELLED, "the transport is closed");
            return;
        }
        try {
            RequestSpec plain = spec.rendered();
            boolean grpc = GrpcTarget.isGrpc(plain.uri());
            long deadlineNanos = grpc ? GrpcTimeout.parseNanos(plain.headers().get(GrpcHeaders.TIMEOUT)) : -1;
            flight.deadlineNanos = deadlineNanos > 0 && deadlineNanos < options.timeoutNanos() ? deadlineNanos : -1;
            flight.grpc = grpc;
            if (flight.deadlineNanos > 0) {
                flight.startNanos = clock.nanoTime();
            }
            Request request = client.newRequest(grpc ? GrpcTarget.httpUrl(plain.uri()) : plain.uri())
                    .method(plain.method())
                    .timeout(flight.deadlineNanos > 0 ? flight.deadlineNanos : options.timeoutNanos(), TimeUnit.NANOSECONDS);
            if (!plain.headers().isEmpty()) {
                request.headers(h -> plain.headers().forEach(h::put));
            }
            if (plain.body() != null) {
                request.body(new BytesRequestContent(plain.contentType(), plain.body()));
            }
            flight.request = request;
            inFlight.add(flight);
            request.listener(flight);
            request.send(flight);
        } catch (RuntimeException e) {
            flight.finish(clock.nanoTime(), 0, Outcome.OTHER, "cannot send " + spec.method() + " " + spec.uri() + ": " + e);
        }
    }

    @Override
    public void cancelAll() {
        for (Flight flight : inFlight) {
            Request request = flight.request;
            if (request != null) {
                request.abort(new CancelledByTester());
            }
        }
    }

    /** How many exchanges ended with this outcome so far. */
    public long count(Outcome outcome) {
        return counts[outcome.ordinal()].sum();
    }

    /** Every outcome's count so far. */
    public Map<Outcome, Long> counts() {
        Map<Outcome, Long> all = new EnumMap<>(Outcome.class);
        for (Outcome outcome : OUTCOMES) {
            all.put(outcome, count(outcome));
        }
        return all;
    }

    /** Cancels what is in flight and stops the client. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        cancelAll();
        try {
            client.stop();
        } catch (Exception e) {
            // stopping is best effort: the exchanges were already completed by cancelAll
        }
    }

    /** The fields of a gRPC answer that hold its status: the trailers, or a trailers-only answer's headers. */
    static HttpFields grpcStatusFields(Response response) {
        HttpFields trailers = response.getTrailers();
        return trailers != null && trailers.contains(GrpcHeaders.STATUS) ? trailers : response.getHeaders();
    }

    /** Maps a failure without a whole response to its outcome. */
    static Outcome classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CancelledByTester) {
                return Outcome.CANCELLED;
            }
            if (t instanceof ConnectException) {
                return Outcome.REFUSED;
            }
            if (t instanceof TimeoutException || t instanceof SocketTimeoutException) {
                return Outcome.TIMEOUT;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase();
            if (isStreamReset(t)) {
                return Outcome.RESET;
            }
            if (t instanceof EOFException || t instanceof ClosedChannelException
                    || t.getClass().getName().equals("org.eclipse.jetty.io.EofException")
                    || (t instanceof IOException && (message.contains("reset") || message.contains("closed")
                    || message.contains("broken pipe")))) {
                return Outcome.RESET;
            }
        }
        return Outcome.OTHER;
    }

    /**
     * An HTTP/2 RST_STREAM from the server: Jetty fails the exchange with an {@link IOException} whose message is
     * the frame's error code in lower case ({@code cancel_stream_error}; {@code reset_code_N} for a code Jetty
     * does not know).
     */
    private static boolean isStreamReset(Throwable t) {
        if (t.getClass() != IOException.class || t.getMessage() == null) {
            return false;
        }
        String message = t.getMessage();
        return message.startsWith("reset_code_") || H2_ERROR_CODES.contains(message);
    }

    /** Thrown into Jetty by {@link #cancelAll()} to tell its aborts from any other failure. */
    static final class CancelledByTester extends Exception {
        private static final long serialVersionUID = 1L;

        CancelledByTester() {
            super("cancelled by the tester", null, false, false);
        }
    }

    /** One exchange in flight: Jetty's request and response listener, and the engine's exchange. */
    private final class Flight implements Request.Listener, Response.Listener {
        private final RequestSpec spec;
        private final Exchange exchange;
        private final AtomicBoolean done = new AtomicBoolean();
        private final AtomicBoolean sent = new AtomicBoolean();
        private volatile Request request;
        /** A gRPC call ({@code grpc://} or {@code grpcs://}), answered by grpc-status. */
        private boolean grpc;
        /** A gRPC call's deadline when it is shorter than the transport's timeout, else -1. */
        private long deadlineNanos = -1;
        /** When {@link #send} took a call with a deadline, which runs from then. */
        private long startNanos;
        private byte[] body;
        private int bodyLength;

        Flight(RequestSpec spec, Exchange exchange) {
            this.spec = spec;
            this.exchange = exchange;
        }

        @Override
        public void onCommit(Request request) {
            markSent();
        }

        /**
         * The response began: the request was sent, even when Jetty has not reported the commit yet (it
         * reports it once its write completes, and on HTTP/2 the answer may be read first on another thread).
         */
        @Override
        public void onBegin(Response response) {
            markSent();
        }

        private void markSent() {
            if (sent.compareAndSet(false, true)) {
                JettyTransport.this.sent.increment();
                exchange.sent(clock.nanoTime());
            }
        }

        @Override
        public void onContent(Response response, ByteBuffer content) {
            if (spec.check() == null) {
                return;
            }
            int room = options.maxResponseBytes() - bodyLength;
            int take = Math.min(room, content.remaining());
            if (take <= 0) {
                return;
            }
            if (body == null) {
                body = new byte[Math.min(options.maxResponseBytes(), Math.max(take, 1024))];
            } else if (bodyLength + take > body.length) {
                body = Arrays.copyOf(body, Math.min(options.maxResponseBytes(), Math.max(bodyLength + take, body.length * 2)));
            }
            content.get(body, bodyLength, take);
            bodyLength += take;
        }

        @Override
        public void onComplete(Result result) {
            long endNanos = clock.nanoTime();
            Response response = result.getResponse();
            int status = response == null ? 0 : response.getStatus();
            if (result.isFailed()) {
                Throwable failure = result.getFailure();
                Outcome outcome = classify(failure);
                if (deadlineNanos > 0 && (outcome == Outcome.TIMEOUT
                        || outcome == Outcome.RESET && endNanos - startNanos >= deadlineNanos)) {
                    finish(endNanos, GrpcStatus.DEADLINE_EXCEEDED.code(), Outcome.GRPC_STATUS, "grpc-status "
                            + GrpcStatus.DEADLINE_EXCEEDED + ": no answer within the deadline of "
                            + TimeUnit.NANOSECONDS.toMillis(deadlineNanos) + " ms");
                    return;
                }
                finish(endNanos, outcome == Outcome.RESET || outcome == Outcome.OTHER ? status : 0, outcome,
                        outcome == Outcome.CANCELLED ? "cancelled" : String.valueOf(failure));
                return;
            }
            ResponseCheck check = spec.check();
            exchange.servedBy(ServedBy.ofHeader(response.getHeaders().get(ServedBy.HEADER)));
            if (grpc) {
                finishCall(endNanos, response);
                return;
            }
            String failed = ResponseCheck.verdict(check, status, check == null ? null : body());
            finish(endNanos, status, Outcome.ofResponse(status, failed), failed);
        }

        /** A whole gRPC answer: its status from grpc-status, then the check (see the class comment). */
        private void finishCall(long endNanos, Response response) {
            HttpFields fields = grpcStatusFields(response);
            GrpcStatus status = GrpcStatus.ofAnswer(response.getStatus(), fields.get(GrpcHeaders.STATUS));
            String message = GrpcStatus.message(fields.get(GrpcHeaders.MESSAGE));
            ResponseCheck check = spec.check();
            String failed = check == null
                    ? status == GrpcStatus.OK ? null : "grpc-status " + status
                    : ResponseCheck.verdict(check, status.code(), body());
            Outcome outcome = Outcome.ofGrpc(status.code(), failed);
            String detail = failed == null || message == null || message.isEmpty() ? failed : failed + ": " + message;
            finish(endNanos, outcome == Outcome.GRPC_STATUS ? status.code() : response.getStatus(), outcome, detail);
        }

        /** The body kept for the check, exactly as long as it was. */
        private byte[] body() {
            return body == null ? new byte[0] : bodyLength == body.length ? body : Arrays.copyOf(body, bodyLength);
        }

        void finish(long endNanos, int status, Outcome outcome, String detail) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            inFlight.remove(this);
            counts[outcome.ordinal()].increment();
            exchange.completed(endNanos, status, outcome, detail);
        }
    }
}
