package io.loadsmith.agent.apps;

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
        AppMain.ready(start(new Server(), false));
        AppMain.untilStdinCloses();
    }

    /**
     * Serves {@code /fast} and {@code /slow?ms=N} on {@code server} (its thread pool is the caller's choice),
     * on 127.0.0.1 and a free port, which it returns. Its answers are "ok", or with {@code answerThreadKind}
     * the kind of thread that ran the handler ("virtual" or "platform").
     */
    static int start(Server server, boolean answerThreadKind) throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                AppMain.work(AppMain.workMillis(request.getHttpURI().getQuery()));
                response.setStatus(200);
                Content.Sink.write(response, true, answerThreadKind ? VirtualThreads.kindOfCurrentThread() : "ok", callback);
                return true;
            }
        });
        server.start();
        return connector.getLocalPort();
    }
}
