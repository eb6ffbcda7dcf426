package io.loadsmith.examples.micronaut;

import io.micronaut.context.ApplicationContext;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.runtime.Micronaut;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Micronaut 4 service, a {@link Controller} on Micronaut's Netty HTTP server: {@code GET /fast} answers
 * "ok", {@code GET /slow?ms=N} "ok" N ms later (a future completed off the event loop, never a blocked
 * one). It listens on 127.0.0.1 and a free port, prints {@code PORT=n} once it does, and exits when its
 * standard input closes.
 */
@Controller
public class MicronautApp {

    @Get(value = "/fast", produces = MediaType.TEXT_PLAIN)
    public String fast() {
        return "ok";
    }

    @Get(value = "/slow", produces = MediaType.TEXT_PLAIN)
    public CompletableFuture<String> slow(@QueryValue("ms") long ms) {
        return CompletableFuture.supplyAsync(() -> "ok", CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
    }

    public static void main(String[] args) throws IOException {
        ApplicationContext context = Micronaut.build(args)
                .properties(Map.of("micronaut.server.host", "127.0.0.1", "micronaut.server.port", -1))
                .banner(false)
                .start();
        System.out.println("PORT=" + context.getBean(EmbeddedServer.class).getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes standard input
        }
        System.exit(0);
    }
}
