package io.loadsmith.examples.spring.mvc;

import java.io.IOException;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot MVC service on its embedded Tomcat: {@code GET /fast} answers "ok", {@code GET /slow?ms=N}
 * "ok" after N ms. It listens on 127.0.0.1 and a free port, prints {@code PORT=n} once it does, and exits
 * when its standard input closes.
 */
@SpringBootApplication
@RestController
public class MvcApp {

    @GetMapping("/fast")
    String fast() {
        return "ok";
    }

    @GetMapping("/slow")
    String slow(@RequestParam(name = "ms", defaultValue = "0") long ms) throws InterruptedException {
        Thread.sleep(ms);
        return "ok";
    }

    public static void main(String[] args) throws IOException {
        SpringApplication application = new SpringApplication(MvcApp.class);
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
