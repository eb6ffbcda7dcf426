package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The admin API of a stall controller ({@code POST /arm}, {@code POST /disarm}, {@code GET /stalls},
 * {@code GET /pauses}, {@code GET /clock}, {@code GET /health}, {@code GET /metrics}), served by the JDK's own
 * {@code com.sun.net.httpserver} on named daemon threads ({@code loadsmith-admin-N}) that every
 * {@link StallGate} lets through. docs/admin-api.md describes every call.
 *
 * <p>Bound to 127.0.0.1 by default. When a token is configured every call needs
 * {@code Authorization: Bearer TOKEN} (compared in constant time); binding to an address other than
 * loopback without a token is refused at start. Bad input answers 4xx with {@code {"error": "..."}};
 * the caps of {@link AdminConfig} cannot be raised through the API. This class is the server's lifecycle;
 * {@link AdminRouter} hands each call to its {@link Endpoint}.
 *
 * <p>Slow clients are bounded by the server's own executor ({@link AdminWorkers}), never by the JDK
 * server's JVM-wide properties: one exchange may take {@link #EXCHANGE_LIMIT_MILLIS}; while other
 * connections wait for a worker, it may read its request for {@link #CROWDED_READ_LIMIT_MILLIS} and take
 * {@link #CROWDED_LIMIT_MILLIS} in all; then its connection is closed. {@value #WORKER_THREADS} workers
 * always run, and up to {@value #MAX_WORKER_THREADS} while connections wait.
 *
 * <p>The JDK server delays small keep-alive responses by up to 40 ms unless
 * {@code sun.net.httpserver.nodelay} is true (Nagle's algorithm against delayed ACKs), which would spoil
 * the clock probe. {@link #start} sets that property to {@code true} when it is not set at all; it is
 * read once, when the JDK server's configuration class loads, and then applies to every JDK HTTP server
 * of the JVM. Pass {@code -Dsun.net.httpserver.nodelay=false} to keep Nagle on.
 */
public final class AdminServer implements AutoCloseable {

    /** Prefix of the names of the admin server's threads. */
    public static final String THREAD_NAME_PREFIX = "loadsmith-admin-";

    private static final int WORKER_THREADS = 4;
    /**
     * How many workers may run while connections wait for one: extra ones start when every worker reads a
     * request too young to be cut, and leave once nothing waits, so that a crowd of half-sent requests is
     * read 32 at a time and a fresh call in it is answered within about one {@link #CROWDED_READ_LIMIT_MILLIS}.
     */
    private static final int MAX_WORKER_THREADS = 32;
    /** How long one exchange (request, handler, answer) may take before its connection is closed. */
    static final long EXCHANGE_LIMIT_MILLIS = 5_000;
    /** How long one exchange may hold a worker while other connections wait for one. */
    static final long CROWDED_LIMIT_MILLIS = 1_000;
    /**
     * How long one exchange may read its request while other connections wait for a worker: a request of
     * a well-behaved client arrives in microseconds on loopback, and a fresh call in a crowd of half-sent
     * requests must be answered within 100 ms.
     */
    static final long CROWDED_READ_LIMIT_MILLIS = 20;
    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();

    private final HttpServer server;
    private final AdminWorkers executor;
    private final InetSocketAddress address;

    private AdminServer(HttpServer server, AdminWorkers executor) {
        this.server = server;
        this.executor = executor;
        this.address = server.getAddress();
    }

    /**
     * Binds and starts the admin server of {@code controller}.
     *
     * @throws IllegalArgumentException if the configuration is refused (a non-loopback address without a
     *                                  token, an unreadable or empty token file, an unknown host)
     * @throws UncheckedIOException     if the address cannot be bound
     */
    public static AdminServer start(AdminConfig config, StallController controller) {
        AdminAuth auth = AdminAuth.of(config);
        InetAddress host = resolve(config.host());
        if (!auth.needsToken() && !host.isLoopbackAddress()) {
            throw new IllegalArgumentException("admin: binding to " + config.host() + " (not loopback) needs a token "
                    + "(token or tokenFile): the stall API will not be served unauthenticated beyond this host");
        }
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        AdminWorkers executor = new AdminWorkers(WORKER_THREADS, MAX_WORKER_THREADS,
                TimeUnit.MILLISECONDS.toNanos(AdminWorkers.TICK_MILLIS),
                TimeUnit.MILLISECONDS.toNanos(EXCHANGE_LIMIT_MILLIS), TimeUnit.MILLISECONDS.toNanos(CROWDED_LIMIT_MILLIS),
                TimeUnit.MILLISECONDS.toNanos(CROWDED_READ_LIMIT_MILLIS), Clock.system(), AdminServer::newThread);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, config.port()), 64);
        } catch (IOException e) {
            executor.close();
            throw new UncheckedIOException("admin: cannot listen on " + config.host() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
        server.setExecutor(executor);
        server.createContext("/", AdminRouter.of(config, controller, auth)::handle);
        startOnDaemonThread(server);
        return new AdminServer(server, executor);
    }

    /** The address the server listens on (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /** Stops listening and stops the server's threads. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }

    private static Thread newThread(Runnable task) {
        Thread thread = new Thread(() -> {
            StallGate.exemptCurrentThread();
            task.run();
        }, THREAD_NAME_PREFIX + THREAD_NUMBER.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }

    /** The JDK server's dispatcher thread inherits daemon status from the thread that starts the server. */
    private static void startOnDaemonThread(HttpServer server) {
        Thread starter = newThread(server::start);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            try {
                starter.join();
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (IOException e) {
            throw new IllegalArgumentException("admin: unknown host " + host + ": " + e.getMessage(), e);
        }
    }
}
