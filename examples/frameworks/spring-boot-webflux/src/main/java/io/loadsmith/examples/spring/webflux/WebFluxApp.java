package io.loadsmith.examples.spring.webflux;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.core.publisher.Mono;

/**
 * A Spring Boot WebFlux service on Reactor Netty, routed by a {@link RouterFunction}: {@code GET /fast}
 * answers "ok", {@code GET /slow?ms=N} "ok" N ms later (a delay, not a blocked event loop). It listens on
 * 127.0.0.1 and a free port, prints {@code PORT=n} once it does, and exits when its standard input closes.
 */
@SpringBootApplication
public class WebFluxApp {

    @Bean
    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
                .GET("/fast", request -> ServerResponse.ok().bodyValue("ok"))
                .GET("/slow", request -> {
                    long ms = request.queryParam("ms").map(Long::parseLong).orElse(0L);
                    return Mono.delay(Duration.ofMillis(ms)).then(ServerResponse.ok().bodyValue("ok"));
                })
                .build();
    }

    public static void main(String[] args) throws IOException {
        SpringApplication application = new SpringApplication(WebFluxApp.class);
        application.setDefaultProperties(Map.of("server.port", "0", "server.address", "127.0.0.1",
                "spring.main.banner-mode", "off"));
        WebServerApplicationContext context = (WebServerApplicationContext) application.run(args);
        System.out.println("PORT=" + context.getWebServer().getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes standard input
        }
        System.exit(0);
    }
}
