package io.loadsmith.tester.client.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * The trivial loopback server of the transport benchmarks (docs/benchmarks.md): a plain Jetty 12 handler
 * answering 200 "hello" on 127.0.0.1:PORT, without blocking. Run from the test class path:
 * {@code java -cp ... io.loadsmith.tester.client.jetty.HelloServer 18080}.
 */
public final class HelloServer {

    private HelloServer() {
    }

    public static void main(String[] args) throws Exception {
        Server server = start(args.length > 0 ? Integer.parseInt(args[0]) : 18080);
        System.out.println("hello server on http://127.0.0.1:" + port(server) + "/");
        server.join();
    }

    /** Starts one on 127.0.0.1:{@code port} (0: any free port); stop it with {@link Server#stop()}. */
    public static Server start(int port) throws Exception {
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.write(true, ByteBuffer.wrap(hello), callback);
                return true;
            }
        });
        server.start();
        return server;
    }

    /** The port {@code server} (one of {@link #start}) listens on. */
    public static int port(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }
}
