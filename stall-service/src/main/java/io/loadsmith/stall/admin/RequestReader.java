package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what a call sends: its query parameters, its {@code Content-Type} and its body, bounded in size
 * and, with {@link AdminWorkers}, in time. Every refusal is an {@link AdminError}.
 */
final class RequestReader {

    /**
     * How much of an oversized body is read and dropped before answering 413 (the time it may take is
     * bounded by {@link AdminServer#EXCHANGE_LIMIT_MILLIS}).
     */
    private static final long DRAIN_LIMIT_BYTES = 64L << 20;

    private static final String SLOW_BODY = "body: not received in time (a request may take "
            + AdminServer.EXCHANGE_LIMIT_MILLIS / 1000 + " s, or " + AdminServer.CROWDED_READ_LIMIT_MILLIS
            + " ms while other connections wait); the connection is closed";

    private RequestReader() {
    }

    // ---- query --------------------------------------------------------------------------------------

    /** Refuses a call whose endpoint takes no parameters but that has a query. */
    static void noQuery(HttpExchange exchange) throws AdminError {
        String query = exchange.getRequestURI().getRawQuery();
        if (query != null && !query.isEmpty()) {
            throw AdminError.badRequest("query: " + exchange.getRequestURI().getRawPath() + " takes no parameters (got "
                    + query + ")");
        }
    }

    /** The query's parameters, decoded, in their order; a name given twice is refused. */
    static Map<String, String> query(HttpExchange exchange) throws AdminError {
        String raw = exchange.getRequestURI().getRawQuery();
        Map<String, String> parameters = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            if (parameters.put(name, value) != null) {
                throw AdminError.badRequest(name + ": given twice");
            }
        }
        return parameters;
    }

    private static String decode(String text) throws AdminError {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw AdminError.badRequest("query: cannot decode " + text + " (" + e.getMessage() + ")");
        }
    }

    static long nonNegativeLong(String name, String value) throws AdminError {
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // answered below
        }
        throw AdminError.badRequest(name + ": must be an integer >= 0 (got " + value + ")");
    }

    // ---- body ---------------------------------------------------------------------------------------

    static void requireJson(HttpExchange exchange) throws AdminError {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        String mediaType = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.equals(AdminJson.TYPE)) {
            throw new AdminError(415, "Content-Type: must be " + AdminJson.TYPE + " (got "
                    + (type == null ? "none" : type) + ")");
        }
    }

    /**
     * Reads the whole body, of at most {@code maxBytes}. If the exchange is cut meanwhile (the client is too
     * slow: see {@link AdminWorkers}), the cut answers 408, or 413 while an oversized body is being drained,
     * and this ends in an IOException.
     */
    static byte[] readBody(HttpExchange exchange, int maxBytes) throws IOException, AdminError {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw AdminError.badRequest("Content-Length: not a number (" + length + ")");
            }
            if (declared > maxBytes) {
                throw drained(exchange, exchange.getRequestBody(),
                        new AdminError(413, "body: " + declared + " bytes is over the limit of " + maxBytes + " bytes"));
            }
        }
        InputStream in = exchange.getRequestBody();
        byte[] buffer = new byte[Math.min(maxBytes + 1, 8192)];
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        AdminWorkers.answerOnCut(() -> AdminResponses.sendOnCut(exchange, 408, SLOW_BODY));
        int read;
        while ((read = in.read(buffer)) >= 0) {
            body.write(buffer, 0, read);
            if (body.size() > maxBytes) {
                throw drained(exchange, in, new AdminError(413, "body: over the limit of " + maxBytes + " bytes"));
            }
        }
        if (!AdminWorkers.withdrawAnswer()) {
            throw new IOException("cut while the body arrived: the cut answered 408");
        }
        return body.toByteArray();
    }

    /** Drains what is left of an oversized body and gives its 413, which a cut meanwhile answers in its place. */
    private static AdminError drained(HttpExchange exchange, InputStream in, AdminError error) throws IOException {
        AdminWorkers.answerOnCut(() -> AdminResponses.sendOnCut(exchange, error.status(), error.getMessage()));
        drainQuietly(in);
        if (!AdminWorkers.withdrawAnswer()) {
            throw new IOException("cut while draining: the cut answered " + error.status());
        }
        return error;
    }

    /**
     * Reads and drops what is left of an oversized body, up to {@link #DRAIN_LIMIT_BYTES}, so that the
     * client has finished sending when the 413 goes out: answering and closing while it still writes
     * makes its TCP stack reset the connection and lose the answer.
     */
    private static void drainQuietly(InputStream in) {
        byte[] buffer = new byte[8192];
        long drained = 0;
        try {
            int read;
            while (drained < DRAIN_LIMIT_BYTES && (read = in.read(buffer)) >= 0) {
                drained += read;
            }
        } catch (IOException ignored) {
            // the client went away: the 413 is answered (or not) all the same
        }
    }
}
