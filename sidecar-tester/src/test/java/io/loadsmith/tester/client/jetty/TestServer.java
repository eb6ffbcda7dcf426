package io.loadsmith.tester.client.jetty;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * A real Jetty 12 server on 127.0.0.1, port 0, for transport and CLI tests. Paths:
 * {@code /ok} answers 200 "hello" at once; {@code /sleep?ms=N} after N ms; {@code /status?code=N} with
 * status N; {@code /json} answers {@code {"score": 42, "who": {"name": "ada"}}}; {@code /echo} echoes the
 * body and the X-Test header; {@code /close} closes the connection without answering; {@code /bye} answers
 * 200 "bye" with {@code Connection: close} and closes the connection.
 */
public final class TestServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;
    public final AtomicLong requests = new AtomicLong();

    private TestServer() throws Exception {
        server = new Server();
        connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                requests.incrementAndGet();
                String path = Request.getPathInContext(request);
                Fields query = Request.extractQueryParameters(request);
                switch (path) {
                    case "/sleep" -> {
                        Thread.sleep(Long.parseLong(query.getValue("ms")));
                        write(response, 200, "slept", callback);
                    }
                    case "/status" -> write(response, Integer.parseInt(query.getValue("code")), "status", callback);
                    case "/json" -> {
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                        write(response, 200, "{\"score\": 42, \"who\": {\"name\": \"ada\"}}", callback);
                    }
                    case "/echo" -> {
                        String body = org.eclipse.jetty.io.Content.Source.asString(request, StandardCharsets.UTF_8);
                        write(response, 200, request.getHeaders().get("X-Test") + ":" + body, callback);
                    }
                    case "/close" -> {
                        request.getConnectionMetaData().getConnection().getEndPoint().close();
                        callback.succeeded();
                    }
                    case "/bye" -> {
                        response.getHeaders().put(HttpHeader.CONNECTION, "close");
                        write(response, 200, "bye", callback);
                    }
                    default -> write(response, 200, "hello", callback);
                }
                return true;
            }
        });
        server.start();
    }

    public static TestServer start() throws Exception {
        return new TestServer();
    }

    private static void write(Response response, int status, String text, Callback callback) {
        response.setStatus(status);
        response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + pathAndQuery);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
