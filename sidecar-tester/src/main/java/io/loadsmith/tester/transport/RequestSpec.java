package io.loadsmith.tester.transport;

import java.net.URI;
import java.util.Map;

/**
 * One request to send.
 *
 * @param method     HTTP method, e.g. {@code GET}
 * @param uri        absolute URI
 * @param headers    extra headers (never null; may be empty)
 * @param body       request body, or null for none
 * @param check      what a good response looks like, or null for "any response with status below 400"
 * @param connection the tester's connection number (closed and paced: 0..N-1), or -1 when the request has
 *                   no connection of its own (open)
 * @param step       the step id the {@code RequestSource} gave this request (0 for a plain GET); results are
 *                   kept per step id
 * @param template   null for a plain request; else the request is {@code template} filled from data row
 *                   {@code row} when it is sent ({@link #rendered()}), and {@code uri} only names its
 *                   endpoint (scheme, host and port), {@code headers} and {@code body} are empty
 * @param row        the data row of a templated request (-1 for a plain one)
 */
public record RequestSpec(String method, URI uri, Map<String, String> headers,
                          byte[] body, ResponseCheck check, int connection, int step,
                          RequestTemplate template, int row) {

    /** A plain request (no template). */
    public RequestSpec(String method, URI uri, Map<String, String> headers, byte[] body, ResponseCheck check,
                       int connection, int step) {
        this(method, uri, headers, body, check, connection, step, null, -1);
    }

    /**
     * A templated request: {@code template} filled from data row {@code row} when sent.
     *
     * @param endpoint the URI of the endpoint it goes to (scheme, host and port are read)
     */
    public static RequestSpec templated(String method, URI endpoint, RequestTemplate template, int row,
                                        ResponseCheck check, int connection, int step) {
        return new RequestSpec(method, endpoint, Map.of(), null, check, connection, step, template, row);
    }

    /** A plain GET of uri, no headers, no body, no check. */
    public static RequestSpec get(URI uri, int connection, int step) {
        return new RequestSpec("GET", uri, Map.of(), null, null, connection, step);
    }

    /** The same request on another connection. */
    public RequestSpec onConnection(int newConnection) {
        return newConnection == connection ? this
                : new RequestSpec(method, uri, headers, body, check, newConnection, step, template, row);
    }

    /** This request with its URI, headers and body as plain values: itself unless it is templated. */
    public RequestSpec rendered() {
        return template == null ? this : template.render(this);
    }

    /**
     * The body's media type: the headers' Content-Type (the name in any case), else, for a body, a guess:
     * {@code application/json} when it starts with {@code {} or {@code [} (after whitespace), else
     * {@code text/plain; charset=utf-8}; null with neither a body nor the header. Of a plain request (see
     * {@link #rendered()}).
     */
    public String contentType() {
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase("Content-Type")) {
                return header.getValue();
            }
        }
        if (body == null) {
            return null;
        }
        for (byte b : body) {
            if (b == '{' || b == '[') {
                return "application/json";
            }
            if (!Character.isWhitespace(b)) {
                break;
            }
        }
        return "text/plain; charset=utf-8";
    }
}
