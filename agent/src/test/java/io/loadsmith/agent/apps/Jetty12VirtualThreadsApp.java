package io.loadsmith.agent.apps;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The {@link Jetty12App} service with its requests on virtual threads (its {@link QueuedThreadPool} hands
 * blocking handlers to a virtual-thread executor; selectors stay on platform threads). It answers the
 * kind of thread that ran its handler ("virtual"). Beside it, an ungated server on the same carriers
 * ({@link VirtualThreads#startUngatedServer()}). Needs Java 21+.
 */
public final class Jetty12VirtualThreadsApp {

    public static void main(String[] args) throws Exception {
        VirtualThreads.watchPinning();
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setVirtualThreadsExecutor(VirtualThreads.newPerTaskExecutor());
        int port = Jetty12App.start(new Server(threads), true);
        VirtualThreads.startUngatedServer();
        AppMain.ready(port);
        AppMain.untilStdinCloses();
    }
}
