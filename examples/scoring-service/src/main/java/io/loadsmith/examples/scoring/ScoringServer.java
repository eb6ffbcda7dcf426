package io.loadsmith.examples.scoring;

import io.javalin.Javalin;
import java.util.concurrent.Executor;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP side: Javalin on Jetty 12, bound to 127.0.0.1 unless told otherwise, with exactly {@code workerThreads} threads running
 * requests (plus one acceptor and one selector thread), so that {@code --threads 1} behaves like a one-worker
 * service: a second request waits for the first. The gRPC port runs its calls on the same threads
 * ({@link #requestThreads()}), so that {@code --threads} bounds both protocols together.
 */
public final class ScoringServer implements AutoCloseable {

    public static final String HOST = "127.0.0.1";
    private static final int ACCEPTORS = 1;
    private static final int SELECTORS = 1;

    private final Javalin app;
    private final String host;
    private final QueuedThreadPool pool;

    private ScoringServer(Javalin app, String host, QueuedThreadPool pool) {
        this.app = app;
        this.host = host;
        this.pool = pool;
    }

    /** Starts serving {@code api} on {@code host}; {@code port} 0 picks a free one (see {@link #port()}). */
    static ScoringServer start(ShopApi api, String host, int port, int workerThreads) {
        int threads = workerThreads + ACCEPTORS + SELECTORS;
        QueuedThreadPool pool = new QueuedThreadPool(threads, threads);
        pool.setReservedThreads(0);
        pool.setName("scoring");
        Javalin app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.showOldJavalinVersionWarning = false;
            cfg.jetty.threadPool = pool;
            cfg.jetty.host = host;
            cfg.jetty.port = port;
            cfg.jetty.addConnector((server, httpConfiguration) -> {
                ServerConnector connector = new ServerConnector(server, ACCEPTORS, SELECTORS,
                        new HttpConnectionFactory(httpConfiguration));
                connector.setHost(host);
                connector.setPort(port);
                return connector;
            });
            api.register(cfg.routes);
        });
        app.start();
        return new ScoringServer(app, host, pool);
    }

    /** The address a client on this host calls: the bound one, or 127.0.0.1 when bound to every address. */
    public String callableHost() {
        return host.equals("0.0.0.0") || host.equals("::") ? HOST : host;
    }

    /** The threads that run requests: a task given here waits its turn behind the requests in hand. */
    Executor requestThreads() {
        return pool;
    }

    /** The port it listens on. */
    public int port() {
        return ((ServerConnector) app.jettyServer().server().getConnectors()[0]).getLocalPort();
    }

    @Override
    public void close() {
        app.stop();
    }
}
