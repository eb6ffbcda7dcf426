package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.transport.RequestSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes a {@link RequestSpec} as HTTP/1.1 request bytes:
 * <pre>
 * METHOD SP path[?query] SP HTTP/1.1 CRLF
 * Host: host[:port]                  (the port unless it is the scheme's default; not when the spec names a Host)
 * name: value                        (the spec's headers, in their order, Content-Length excepted)
 * Content-Type: ...                  (with a body whose headers name none: {@link RequestSpec#contentType()})
 * Content-Length: n                  (with a body, or 0 for POST and PUT without one)
 * CRLF
 * body
 * </pre>
 * Path and query are written as in the URI (already percent-encoded), non-ASCII characters
 * percent-encoded as UTF-8; header values are written as UTF-8. A method or header name that is not a
 * token, or a header value with CR, LF or NUL, is refused with {@link IllegalArgumentException}: the
 * bytes would not be one request.
 */
public final class RequestEncoder {

    static final byte[] VERSION_LINE = ascii(" HTTP/1.1\r\n");
    static final byte[] HOST = ascii("Host: ");
    static final byte[] CONTENT_TYPE = ascii("Content-Type: ");
    static final byte[] CONTENT_LENGTH = ascii("Content-Length: ");
    static final byte[] SEPARATOR = ascii(": ");
    private static final byte[] HEX = ascii("0123456789ABCDEF");

    private RequestEncoder() {
    }

    /** Appends the request's bytes to out (of a templated spec, those of its {@link RequestSpec#rendered()}). */
    public static void encode(RequestSpec spec, ByteBuf out) {
        if (spec.template() != null) {
            spec = spec.rendered();
        }
        URI uri = spec.uri();
        writeToken(out, spec.method(), "method");
        out.writeByte(' ');
        String path = uri.getRawPath();
        if (path == null || path.isEmpty()) {
            out.writeByte('/');
        } else {
            writeUriPart(out, path);
        }
        String query = uri.getRawQuery();
        if (query != null) {
            out.writeByte('?');
            writeUriPart(out, query);
        }
        out.writeBytes(VERSION_LINE);
        boolean specHost = false;
        boolean specType = false;
        for (Map.Entry<String, String> header : spec.headers().entrySet()) {
            String name = header.getKey();
            specHost |= name.equalsIgnoreCase("Host");
            specType |= name.equalsIgnoreCase("Content-Type");
        }
        if (!specHost) {
            out.writeBytes(HOST);
            writeHost(out, uri);
            crlf(out);
        }
        for (Map.Entry<String, String> header : spec.headers().entrySet()) {
            if (!header.getKey().equalsIgnoreCase("Content-Length")) {
                writeToken(out, header.getKey(), "header name");
                out.writeBytes(SEPARATOR);
                writeValue(out, header.getKey(), header.getValue());
                crlf(out);
            }
        }
        byte[] body = spec.body();
        if (body != null && !specType) {
            out.writeBytes(CONTENT_TYPE);
            ByteBufUtil.writeAscii(out, spec.contentType());
            crlf(out);
        }
        if (body != null || spec.method().equals("POST") || spec.method().equals("PUT")) {
            out.writeBytes(CONTENT_LENGTH);
            writeDecimal(out, body == null ? 0 : body.length);
            crlf(out);
        }
        crlf(out);
        if (body != null) {
            out.writeBytes(body);
        }
    }

    /** The request's bytes in an array of their own. */
    public static byte[] encode(RequestSpec spec) {
        ByteBuf out = Unpooled.buffer(256 + (spec.body() == null ? 0 : spec.body().length));
        try {
            encode(spec, out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    static void writeHost(ByteBuf out, URI uri) {
        String host = uri.getHost(); // an IPv6 literal comes with its brackets
        if (host == null) {          // a name java.net.URI does not take as a host (e.g. with '_'): as written
            String authority = uri.getRawAuthority();
            if (authority == null) {
                throw new IllegalArgumentException("no host in " + uri);
            }
            writeUriPart(out, authority.substring(authority.lastIndexOf('@') + 1));
            return;
        }
        writeUriPart(out, host);
        int port = uri.getPort();
        if (port != -1 && port != defaultPort(uri.getScheme())) {
            out.writeByte(':');
            writeDecimal(out, port);
        }
    }

    private static int defaultPort(String scheme) {
        if ("http".equalsIgnoreCase(scheme)) {
            return 80;
        }
        return "https".equalsIgnoreCase(scheme) ? 443 : -1;
    }

    static void writeToken(ByteBuf out, String token, String what) {
        if (token.isEmpty()) {
            throw new IllegalArgumentException("empty " + what);
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (!ResponseParser.isTokenChar(c)) {
                throw new IllegalArgumentException(what + " '" + token + "' has a character that is not allowed in a token: '"
                        + c + "'");
            }
        }
        ByteBufUtil.writeAscii(out, token);
    }

    static void writeValue(ByteBuf out, String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException("header " + name + " has a CR, LF or NUL in its value");
            }
        }
        ByteBufUtil.writeUtf8(out, value);
    }

    /** ASCII as is; any other character percent-encoded as UTF-8. */
    static void writeUriPart(ByteBuf out, CharSequence part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c < 0x80) {
                out.writeByte(c);
                continue;
            }
            int codePoint = Character.codePointAt(part, i);
            if (Character.isSupplementaryCodePoint(codePoint)) {
                i++;
            }
            if (codePoint < 0x800) {
                percent(out, 0xC0 | codePoint >> 6);
            } else {
                if (codePoint < 0x10000) {
                    percent(out, 0xE0 | codePoint >> 12);
                } else {
                    percent(out, 0xF0 | codePoint >> 18);
                    percent(out, 0x80 | (codePoint >> 12 & 0x3F));
                }
                percent(out, 0x80 | (codePoint >> 6 & 0x3F));
            }
            percent(out, 0x80 | (codePoint & 0x3F));
        }
    }

    private static void percent(ByteBuf out, int b) {
        out.writeByte('%');
        out.writeByte(HEX[b >> 4 & 0xF]);
        out.writeByte(HEX[b & 0xF]);
    }

    static void writeDecimal(ByteBuf out, long value) {
        long divisor = 1;
        while (divisor <= value / 10) {
            divisor *= 10;
        }
        for (; divisor > 0; divisor /= 10) {
            out.writeByte((int) ('0' + value / divisor % 10));
        }
    }

    static void crlf(ByteBuf out) {
        out.writeByte('\r');
        out.writeByte('\n');
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
