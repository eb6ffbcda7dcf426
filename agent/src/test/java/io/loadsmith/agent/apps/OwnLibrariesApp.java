package io.loadsmith.agent.apps;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * A service that ships its own Byte Buddy and Jackson (other versions than the agent's): every answer
 * is made with both, and names the jars they came from.
 */
public final class OwnLibrariesApp {

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> {
            AppMain.work(AppMain.workMillis(exchange.getRequestURI()));
            byte[] body;
            try {
                Object made = new ByteBuddy().subclass(Object.class)
                        .method(ElementMatchers.named("toString")).intercept(FixedValue.value("made-by-app-bytebuddy"))
                        .make().load(OwnLibrariesApp.class.getClassLoader()).getLoaded()
                        .getDeclaredConstructor().newInstance();
                ByteArrayOutputStream json = new ByteArrayOutputStream();
                try (JsonGenerator out = new JsonFactory().createGenerator(json)) {
                    out.writeStartObject();
                    out.writeStringField("made", made.toString());
                    out.writeStringField("bytebuddy", jarOf(ByteBuddy.class));
                    out.writeStringField("jackson", jarOf(JsonFactory.class));
                    out.writeEndObject();
                }
                body = json.toByteArray();
            } catch (Exception e) {
                body = ("failed: " + e).getBytes();
            }
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        AppMain.ready(server.getAddress().getPort());
        AppMain.untilStdinCloses();
    }

    private static String jarOf(Class<?> type) {
        String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
