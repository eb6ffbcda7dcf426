package io.loadsmith.examples.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.util.concurrent.ExecutionException;

/**
 * A Vert.x Web service, routed by a {@link Router} on Vert.x's own HTTP server: {@code GET /fast} answers
 * "ok", {@code GET /slow?ms=N} "ok" N ms later (a timer on the event loop, never a blocked one). It
 * listens on 127.0.0.1 and a free port, prints {@code PORT=n} once it does, and exits when its standard
 * input closes.
 */
public final class VertxWebApp {

    private VertxWebApp() {
    }

    public static void main(String[] args) throws IOException, ExecutionException, InterruptedException {
        Vertx vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.get("/fast").handler(context -> context.response().end("ok"));
        router.get("/slow").handler(context -> {
            long ms = Long.parseLong(context.queryParams().get("ms"));
            vertx.setTimer(ms, timer -> context.response().end("ok"));
        });
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("PORT=" + server.actualPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes standard input
        }
        System.exit(0);
    }
}
