package io.loadsmith.agent.apps;

import io.javalin.Javalin;

/** A Javalin 7 service (Jetty 12 underneath). */
public final class Javalin7App {

    public static void main(String[] args) {
        Javalin app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.routes.get("/fast", ctx -> ctx.result("ok"));
            config.routes.get("/slow", ctx -> {
                AppMain.work(Long.parseLong(ctx.queryParam("ms")));
                ctx.result("ok");
            });
        }).start();
        AppMain.ready(app.port());
        AppMain.untilStdinCloses();
    }
}
