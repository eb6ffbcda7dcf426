package io.loadsmith.agent.apps;

import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/** A service on Jetty 12's core API. */
public final class Jetty12App {

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                AppMain.work(AppMain.workMillis(request.getHttpURI().getQuery()));
                response.setStatus(200);
                Content.Sink.write(response, true, "ok", callback);
                return true;
            }
        });
        server.start();
        AppMain.ready(connector.getLocalPort());
        AppMain.untilStdinCloses();
    }
}
