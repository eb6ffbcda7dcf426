package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JdkHttpServersTest {

    @Test
    void a_server_started_from_the_agents_thread_group_is_the_agents_and_any_other_the_services() throws Exception {
        ThreadGroup agentThreads = new ThreadGroup("agent-under-test");
        AtomicReference<HttpServer> started = new AtomicReference<>();
        Thread starter = new Thread(agentThreads, () -> {
            try {
                HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
                server.start();
                started.set(server);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        starter.start();
        starter.join();
        try {
            assertThat(started.get()).isNotNull();
            assertThat(JdkHttpServers.serviceRunsOne(agentThreads)).as("only the agent's server runs").isFalse();
            assertThat(JdkHttpServers.serviceRunsOne(new ThreadGroup("another-agent"))).as("seen from elsewhere").isTrue();
        } finally {
            started.get().stop(0);
        }
    }
}
