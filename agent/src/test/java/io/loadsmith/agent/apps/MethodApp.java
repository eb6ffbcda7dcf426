package io.loadsmith.agent.apps;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A service whose handler computes its answer in {@link #compute(long)}: the test gates that method by
 * name ({@code method=io.loadsmith.agent.apps.MethodApp#compute}) with no server target at all.
 */
public final class MethodApp {

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            byte[] body = compute(AppMain.workMillis(exchange.getRequestURI())).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        AppMain.ready(server.getAddress().getPort());
        AppMain.untilStdinCloses();
    }

    static String compute(long workMillis) {
        AppMain.work(workMillis);
        return "ok";
    }
}
