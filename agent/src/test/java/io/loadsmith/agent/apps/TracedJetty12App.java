package io.loadsmith.agent.apps;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The Jetty 12 service of {@link Jetty12App} for a JVM with a tracing agent beside ours, with one more path:
 * {@code /loadable?class=NAME&from=LOADER} answers {@code yes} or {@code no}: whether {@code NAME} loads from
 * that class loader, {@code system} (the service's), {@code boot} (where our gate lives) or {@code otel} (the
 * OpenTelemetry agent's own, found through its bootstrap class {@code AgentInitializer}), without initialising it.
 */
public final class TracedJetty12App {

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String query = request.getHttpURI().getQuery();
                String answer = "ok";
                if (request.getHttpURI().getPath().equals("/loadable")) {
                    Fields parameters = Request.extractQueryParameters(request);
                    answer = loadable(parameters.getValue("class"), parameters.getValue("from"));
                } else {
                    AppMain.work(AppMain.workMillis(query));
                }
                response.setStatus(200);
                Content.Sink.write(response, true, answer, callback);
                return true;
            }
        });
        server.start();
        AppMain.ready(connector.getLocalPort());
        AppMain.untilStdinCloses();
    }

    private static String loadable(String name, String from) {
        try {
            Class.forName(name, false, loader(from));
            return "yes";
        } catch (ClassNotFoundException | LinkageError e) {
            return "no";
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "error: " + e;
        }
    }

    private static ClassLoader loader(String from) throws ReflectiveOperationException {
        return switch (from) {
            case "system" -> ClassLoader.getSystemClassLoader();
            case "boot" -> null;
            case "otel" -> (ClassLoader) Class.forName("io.opentelemetry.javaagent.bootstrap.AgentInitializer", false, null)
                    .getMethod("getExtensionsClassLoader").invoke(null);
            default -> throw new IllegalArgumentException("from=" + from);
        };
    }
}
