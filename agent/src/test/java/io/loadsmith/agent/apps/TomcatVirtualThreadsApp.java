package io.loadsmith.agent.apps;

/**
 * The {@link TomcatApp} service with its requests on virtual threads (the connector's
 * {@code useVirtualThreads}). It answers the kind of thread that ran its servlet ("virtual"). Beside it,
 * an ungated server on the same carriers ({@link VirtualThreads#startUngatedServer()}). Needs Java 21+.
 */
public final class TomcatVirtualThreadsApp {

    public static void main(String[] args) throws Exception {
        VirtualThreads.watchPinning();
        int port = TomcatApp.start(true);
        VirtualThreads.startUngatedServer();
        AppMain.ready(port);
        AppMain.untilStdinCloses();
    }
}
