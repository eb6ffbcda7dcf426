package io.loadsmith.tester.client.netty;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.client.http1.RequestEncoder;
import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.PemCertificates;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.HdrHistogram.Histogram;

/**
 * The default {@link Transport}: HTTP/1.1 written and parsed by loadsmith itself ({@code client.http1})
 * on one Netty event loop (native epoll where available) that is also the run's {@link LoopScheduler}.
 *
 * <p><b>Threads.</b> Everything happens on the loop's thread: {@link #send} (called there by the engine; a
 * call from another thread is handed to the loop), the connects, the writes, the parsing and every
 * {@link Exchange} callback. Nothing is handed between threads on the way of a request.
 *
 * <p><b>Connections.</b> A request with {@code connection() = k >= 0} (closed and paced testers) goes on
 * the tester's connection k, one TCP connection each, opened at its first request. A request with
 * connection -1 (open) takes an idle connection of a pool of {@link TransportOptions#connections()},
 * opened lazily; when all are busy it waits in a FIFO queue in the transport, and is sent the moment one
 * is free (its wait shows in corrected latency only). One request at a time on a connection (no
 * pipelining). A response with {@code Connection: close}, an error, a timeout or a cancel closes the
 * connection; its next request opens a new one (counted in {@link #connections()}).
 *
 * <p><b>Times.</b> {@link Exchange#sent} gets the clock right after {@code writeAndFlush} returned: on the
 * loop's thread Netty writes to the socket in that call when the socket is writable, so this is the moment
 * the request's bytes were handed to the kernel (for https, after the TLS handshake of a new connection,
 * encrypted). {@link Exchange#completed} gets the moment the parser returned the response's end.
 *
 * <p><b>Outcomes</b> as {@code JettyTransport} defines them: without a check, status below 400 is
 * {@link Outcome#OK}, else {@link Outcome#HTTP_STATUS}; with a check, a failing check is HTTP_STATUS at 400
 * or above, else {@link Outcome#CHECK_FAILED}. Connect refused {@link Outcome#REFUSED}; reset or closed
 * before the response ended {@link Outcome#RESET}; the per-request timeout (from {@link #send}, waiting
 * included) or the connect timeout {@link Outcome#TIMEOUT}; a malformed or oversized response
 * {@link Outcome#BAD_RESPONSE}; {@link #cancelAll()} {@link Outcome#CANCELLED}; anything else
 * {@link Outcome#OTHER}. The response body is counted, not kept, unless the request has a check.
 *
 * <p><b>Encoding.</b> A request is encoded once into a pooled direct buffer; the transport remembers the
 * last few, and a request whose method, URI, headers and body are the same instances as a remembered one
 * (a plain GET of the target, for every arrival) is written again as a duplicate of that buffer. A templated
 * request ({@link RequestSpec#template()}) is written by its template, its row's values straight into the
 * buffer.
 */
public final class NettyTransport implements Transport, TransportStats {

    static final String LEAK_LEVEL_PROPERTY = "io.netty.leakDetection.level";
    private static final int CACHED_REQUESTS = 4;
    private static final long MAX_SWEEP_NANOS = 100_000_000L;
    private static final Outcome[] OUTCOMES = Outcome.values();

    private final LoopScheduler loop;
    private final EventLoop eventLoop;
    private final Clock clock;
    private final TransportOptions options;
    private final SslContext ssl;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final List<Connection> dedicated = new ArrayList<>();
    private final List<Connection> pool = new ArrayList<>();
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private final Map<String, InetSocketAddress> addresses = new HashMap<>();
    private final RequestSpec[] cachedSpecs = new RequestSpec[CACHED_REQUESTS];
    private final ByteBuf[] cachedBytes = new ByteBuf[CACHED_REQUESTS];
    private final long[] outcomeCounts = new long[OUTCOMES.length];
    private final Histogram connectMicros = Histograms.create();
    private final ScheduledFuture<?> sweep;
    // written on the loop only, read anywhere
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong sentCount = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    // loop only
    private int nextCached;
    private long opened;
    private long reconnects;
    private long failedConnects;
    private boolean closed;

    private NettyTransport(LoopScheduler loop, TransportOptions options) {
        this.loop = loop;
        this.eventLoop = loop.eventLoop();
        this.clock = loop;
        this.options = options;
        this.ssl = sslContext(options.tls());
        long sweepNanos = Math.max(1_000_000L, Math.min(MAX_SWEEP_NANOS, options.timeoutNanos() / 20));
        this.sweep = eventLoop.scheduleAtFixedRate(this::expire, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Starts an event loop and a transport on it; the loop is the {@link OpenTransport#scheduler()}. With
     * {@link TransportOptions#loops()} n > 1, n of them, one lane each ({@link OpenTransport#lanes()}), the
     * open pool split among them ({@code connections / n}, the first {@code connections mod n} one more, at
     * least 1 each).
     */
    public static OpenTransport open(TransportOptions options) {
        if (options.loops() == 1) {
            return open(options, true);
        }
        quietLeakDetector();
        return NettyLanes.open(options, true);
    }

    /** {@link #open(TransportOptions)}; {@code nativeEpoll} false forces Java NIO (for tests of the fallback). */
    static OpenTransport open(TransportOptions options, boolean nativeEpoll) {
        quietLeakDetector();
        LoopScheduler loop = LoopScheduler.start(nativeEpoll);
        try {
            NettyTransport transport = new NettyTransport(loop, options);
            return new OpenTransport(loop, transport, transport, loop);
        } catch (RuntimeException e) {
            loop.close();
            throw e;
        }
    }

    /** A transport on a started loop (one lane of {@link NettyLanes}). */
    static NettyTransport on(LoopScheduler loop, TransportOptions options) {
        return new NettyTransport(loop, options);
    }

    /**
     * Turns Netty's buffer leak detector off, unless a level was asked for ({@value #LEAK_LEVEL_PROPERTY}):
     * at its default level it follows one buffer in 128 with a stack trace taken at each touch, the
     * loop's largest allocation per request (a few KB every 128 buffers), for a check the transport's
     * tests can ask for. It is Netty's one switch for the whole JVM.
     */
    private static void quietLeakDetector() {
        if (System.getProperty(LEAK_LEVEL_PROPERTY) == null && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private static SslContext sslContext(TransportOptions.Tls tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
            if (tls.insecure()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
            } else {
                builder.endpointIdentificationAlgorithm("HTTPS");
                if (tls.caFile() != null) {
                    builder.trustManager(PemCertificates.read(tls.caFile()));
                }
            }
            return builder.build();
        } catch (IOException e) {
            throw new IllegalStateException(tls.caFile() + " " + e.getMessage(), e);
        }
    }

    @Override
    public void send(RequestSpec spec, Exchange exchange) {
        if (!eventLoop.inEventLoop()) {
            try {
                eventLoop.execute(() -> send(spec, exchange));
            } catch (RejectedExecutionException closed) {
                exchange.completed(clock.nanoTime(), 0, Outcome.CANCELLED, "the transport is closed");
            }
            return;
        }
        started.lazySet(started.get() + 1);
        long now = clock.nanoTime();
        if (closed) {
            complete(exchange, now, 0, Outcome.CANCELLED, "the transport is closed");
            return;
        }
        String scheme = spec.uri().getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme) || spec.uri().getHost() == null) {
            complete(exchange, now, 0, Outcome.OTHER, "cannot send " + spec.method() + " " + spec.uri()
                    + ": only http:// and https:// URLs with a host");
            return;
        }
        Connection connection;
        int k = spec.connection();
        if (k >= 0) {
            connection = dedicated(k);
            if (connection.busy) {
                connection.queue().add(new Waiting(spec, exchange, now));
                return;
            }
        } else {
            connection = idle.pollFirst();
            if (connection == null) {
                if (pool.size() >= options.connections()) {
                    waiting.add(new Waiting(spec, exchange, now));
                    return;
                }
                connection = new Connection(this, pool.size(), true);
                pool.add(connection);
            }
        }
        connection.assign(spec, exchange, now);
    }

    private Connection dedicated(int k) {
        while (dedicated.size() <= k) {
            dedicated.add(null);
        }
        Connection connection = dedicated.get(k);
        if (connection == null) {
            connection = new Connection(this, k, false);
            dedicated.set(k, connection);
        }
        return connection;
    }

    /** Sends the next request waiting for this connection, or makes it idle. */
    void release(Connection connection) {
        Waiting next = connection.pooled ? waiting.poll() : connection.queue == null ? null : connection.queue.poll();
        if (next != null && !closed) {
            connection.assign(next.spec, next.exchange, next.startNanos);
            return;
        }
        connection.busy = false;
        if (connection.pooled) {
            idle.addFirst(connection);
        }
    }

    /**
     * The request's bytes: a templated one written from its row; else a duplicate of a remembered encoding
     * when its parts are the same instances.
     */
    ByteBuf encoded(RequestSpec spec) {
        if (spec.template() != null) {
            ByteBuf bytes = alloc.directBuffer(256);
            spec.template().encode(spec, bytes);
            return bytes;
        }
        for (int i = 0; i < CACHED_REQUESTS; i++) {
            RequestSpec cached = cachedSpecs[i];
            if (cached != null && sameRequest(cached, spec)) {
                return cachedBytes[i].retainedDuplicate();
            }
        }
        ByteBuf bytes = alloc.directBuffer(256);
        RequestEncoder.encode(spec, bytes);
        int slot = nextCached;
        nextCached = (nextCached + 1) % CACHED_REQUESTS;
        if (cachedBytes[slot] != null) {
            cachedBytes[slot].release();
        }
        cachedSpecs[slot] = spec;
        cachedBytes[slot] = bytes;
        return bytes.retainedDuplicate();
    }

    private static boolean sameRequest(RequestSpec a, RequestSpec b) {
        return a == b || (a.method() == b.method() && a.uri() == b.uri() && a.headers() == b.headers()
                && a.body() == b.body());
    }

    /** The resolved address of a URI's host and port (resolved once per host and port). */
    InetSocketAddress address(URI uri) {
        int port = port(uri);
        String key = uri.getHost() + ":" + port;
        InetSocketAddress address = addresses.get(key);
        if (address == null) {
            address = new InetSocketAddress(uri.getHost(), port);
            addresses.put(key, address);
        }
        return address;
    }

    static int port(URI uri) {
        return uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    }

    SslContext ssl() {
        return ssl;
    }

    EventLoop eventLoop() {
        return eventLoop;
    }

    Class<? extends io.netty.channel.socket.SocketChannel> channelType() {
        return loop.channelType();
    }

    long connectTimeoutMillis() {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(options.connectTimeoutNanos()));
    }

    long nanoTime() {
        return clock.nanoTime();
    }

    void countSent() {
        sentCount.lazySet(sentCount.get() + 1);
    }

    void connected(long connectNanos, boolean again) {
        opened++;
        if (again) {
            reconnects++;
        }
        connectMicros.recordValue(Math.max(0, Math.min(connectMicros.getHighestTrackableValue(),
                (connectNanos + 500) / 1000)));
    }

    void connectFailed() {
        failedConnects++;
    }

    /** Ends an exchange: counts it and tells the engine. */
    void complete(Exchange exchange, long endNanos, int status, Outcome outcome, String detail) {
        outcomeCounts[outcome.ordinal()]++;
        ended.lazySet(ended.get() + 1);
        exchange.completed(endNanos, status, outcome, detail);
    }

    /** Times out what waited or ran longer than the timeout. Every few ms to 100 ms, on the loop. */
    private void expire() {
        long now = clock.nanoTime();
        long timeout = options.timeoutNanos();
        expireWaiting(waiting, now, timeout);
        for (List<Connection> list : List.of(dedicated, pool)) {
            for (int i = 0; i < list.size(); i++) {
                Connection connection = list.get(i);
                if (connection == null) {
                    continue;
                }
                if (connection.queue != null) {
                    expireWaiting(connection.queue, now, timeout);
                }
                if (connection.exchange != null && now - connection.startNanos >= timeout) {
                    connection.fail(now, Outcome.TIMEOUT, "no response within " + millis(timeout) + " ms");
                }
            }
        }
    }

    private void expireWaiting(ArrayDeque<Waiting> queue, long now, long timeout) {
        Waiting head;
        while ((head = queue.peek()) != null && now - head.startNanos >= timeout) {
            queue.poll();
            complete(head.exchange, now, 0, Outcome.TIMEOUT,
                    "no free connection within " + millis(timeout) + " ms");
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    @Override
    public void cancelAll() {
        if (!eventLoop.inEventLoop()) {
            try {
                eventLoop.execute(this::cancelAll);
            } catch (RejectedExecutionException closed) {
                // the loop is closed: nothing is in flight any more
            }
            return;
        }
        long now = clock.nanoTime();
        cancelWaiting(waiting, now);
        for (List<Connection> list : List.of(dedicated, pool)) {
            for (int i = 0; i < list.size(); i++) {
                Connection connection = list.get(i);
                if (connection != null && connection.queue != null) {
                    cancelWaiting(connection.queue, now);
                }
            }
        }
        for (List<Connection> list : List.of(dedicated, pool)) {
            for (int i = 0; i < list.size(); i++) {
                Connection connection = list.get(i);
                if (connection != null && connection.exchange != null) {
                    connection.fail(now, Outcome.CANCELLED, "cancelled");
                }
            }
        }
    }

    private void cancelWaiting(ArrayDeque<Waiting> queue, long now) {
        Waiting w;
        while ((w = queue.poll()) != null) {
            complete(w.exchange, now, 0, Outcome.CANCELLED, "cancelled");
        }
    }

    @Override
    public long sent() {
        return sentCount.get();
    }

    @Override
    public long inFlight() {
        return started.get() - ended.get();
    }

    /** Connections opened, reopened and failed, and connect times, so far. */
    @Override
    public ConnectionStats connections() {
        return onLoop(() -> new ConnectionStats(opened, reconnects, failedConnects,
                connectMicros.getTotalCount() == 0 ? 0 : connectMicros.getValueAtPercentile(50) / 1000.0,
                connectMicros.getMaxValue() / 1000.0));
    }

    /** A copy of the connect times so far, µs. */
    Histogram connectTimes() {
        return onLoop(connectMicros::copy);
    }

    /** How many exchanges ended with each outcome so far. */
    public Map<Outcome, Long> counts() {
        return onLoop(() -> {
            Map<Outcome, Long> all = new EnumMap<>(Outcome.class);
            for (Outcome outcome : OUTCOMES) {
                all.put(outcome, outcomeCounts[outcome.ordinal()]);
            }
            return all;
        });
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> read) {
        try {
            if (eventLoop.inEventLoop()) {
                return read.call();
            }
            return eventLoop.submit(read).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the transport's counts", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the transport's counts: " + e, e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Cancels what is in flight and closes every connection; the loop itself is closed by its owner. */
    @Override
    public void close() {
        if (eventLoop.isShuttingDown()) {
            return;
        }
        try {
            onLoop(() -> {
                if (!closed) {
                    cancelAll();
                    closed = true;
                    sweep.cancel(false);
                    for (List<Connection> list : List.of(dedicated, pool)) {
                        for (Connection connection : list) {
                            if (connection != null) {
                                connection.disconnect();
                            }
                        }
                    }
                    for (int i = 0; i < CACHED_REQUESTS; i++) {
                        if (cachedBytes[i] != null) {
                            cachedBytes[i].release();
                            cachedBytes[i] = null;
                            cachedSpecs[i] = null;
                        }
                    }
                }
                return null;
            });
        } catch (IllegalStateException e) {
            // the loop is gone: so are its connections
        }
    }

    static Outcome classifyConnectFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof io.netty.channel.ConnectTimeoutException) {
                return Outcome.TIMEOUT;
            }
            if (t instanceof java.net.ConnectException) {
                return Outcome.REFUSED;
            }
            if (t instanceof SSLException) {
                return Outcome.OTHER;
            }
        }
        return Outcome.OTHER;
    }

    static Outcome classifyFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return Outcome.OTHER;
            }
        }
        return cause instanceof IOException ? Outcome.RESET : Outcome.OTHER;
    }

    /** A request that found no free connection, waiting in FIFO order. */
    record Waiting(RequestSpec spec, Exchange exchange, long startNanos) {
    }

    static void configure(io.netty.bootstrap.Bootstrap bootstrap, NettyTransport transport) {
        bootstrap.group(transport.eventLoop)
                .channel(transport.channelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        transport.connectTimeoutMillis()));
    }
}
