package io.loadsmith.agent;

/**
 * Whether the service runs a JDK HTTP server ({@code com.sun.net.httpserver}) of its own. The agent's
 * admin API runs on one, so the {@code jdkhttp} target's classes are loaded and gated in every JVM the
 * agent is up in; they hold the service's requests only if the service has such a server too. Every
 * server has a dispatcher thread named {@value #DISPATCHER_THREAD}; the agent starts its admin API on a
 * thread of the group {@link AgentRuntime#AGENT_THREADS}, where its dispatcher is born, so a dispatcher
 * outside that group is the service's. Reads the live threads once a call (not on a request path).
 */
final class JdkHttpServers {

    /** The name the JDK gives every server's dispatcher thread ({@code sun.net.httpserver.ServerImpl}, JDK 17-25). */
    static final String DISPATCHER_THREAD = "HTTP-Dispatcher";

    private JdkHttpServers() {
    }

    /** True when a live dispatcher thread lies outside {@code agentThreads}. */
    static boolean serviceRunsOne(ThreadGroup agentThreads) {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 32];
        int count = root.enumerate(threads, true);
        for (int i = 0; i < count; i++) {
            Thread thread = threads[i];
            ThreadGroup group = thread.getThreadGroup();
            if (DISPATCHER_THREAD.equals(thread.getName()) && group != null && !agentThreads.parentOf(group)) {
                return true;
            }
        }
        return false;
    }
}
