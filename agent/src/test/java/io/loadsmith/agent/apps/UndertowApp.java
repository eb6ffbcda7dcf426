package io.loadsmith.agent.apps;

import io.undertow.Undertow;
import java.net.InetSocketAddress;

/** A service on Undertow (handlers dispatched to its worker pool). */
public final class UndertowApp {

    public static void main(String[] args) {
        Undertow server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setHandler(exchange -> {
                    if (exchange.isInIoThread()) {
                        exchange.dispatch((io.undertow.server.HttpHandler) UndertowApp::handle);
                        return;
                    }
                    handle(exchange);
                })
                .build();
        server.start();
        InetSocketAddress address = (InetSocketAddress) server.getListenerInfo().get(0).getAddress();
        AppMain.ready(address.getPort());
        AppMain.untilStdinCloses();
    }

    private static void handle(io.undertow.server.HttpServerExchange exchange) {
        AppMain.work(AppMain.workMillis(exchange.getQueryString()));
        exchange.getResponseSender().send("ok");
    }
}
