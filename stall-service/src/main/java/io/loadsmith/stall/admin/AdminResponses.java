package io.loadsmith.stall.admin;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;

/** Sends the admin API's answers: {@code Cache-Control: no-store}, no body on {@code HEAD}. */
final class AdminResponses {

    private AdminResponses() {
    }

    static void sendJson(HttpExchange exchange, int status, AdminJson.Fields fields) throws IOException {
        send(exchange, status, AdminJson.TYPE, AdminJson.bytes(fields));
    }

    /** Answers {@code {"error": message}}, unless the client went away or the answer was already started. */
    static void sendError(HttpExchange exchange, int status, String message) {
        try {
            sendJson(exchange, status, AdminJson.error(message));
        } catch (IOException | RuntimeException ignored) {
            // the client went away, or the response was already started
        }
    }

    static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        headers.set("Content-Type", type);
        headers.set("Cache-Control", "no-store");
        if (exchange.getRequestMethod().equals("HEAD")) {
            AdminWorkers.drainingRequest(); // the JDK drains the request body as it sends these headers
            exchange.sendResponseHeaders(status, -1); // a HEAD answer has no body (the JDK warns otherwise)
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
            AdminWorkers.drainingRequest(); // closing drains what the handler left unread of the request body
        }
    }

    /**
     * The error answer of a cut, written on the watchdog's answer thread while the worker is still blocked
     * reading the request: written and flushed but not closed (closing would drain the request body, which
     * the blocked worker is reading); the cut then closes the connection.
     */
    static void sendOnCut(HttpExchange exchange, int status, String message) {
        try {
            byte[] body = AdminJson.bytes(AdminJson.error(message));
            Headers headers = exchange.getResponseHeaders();
            headers.set("Content-Type", AdminJson.TYPE);
            headers.set("Cache-Control", "no-store");
            headers.set("Connection", "close");
            exchange.sendResponseHeaders(status, body.length);
            OutputStream out = exchange.getResponseBody();
            out.write(body);
            out.flush();
        } catch (IOException | RuntimeException ignored) {
            // the client went away
        }
    }
}
