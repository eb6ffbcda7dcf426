package io.loadsmith.tester.transport.http1;

import io.loadsmith.tester.transport.RequestSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Encodes a {@link RequestSpec} as an HTTP/1.1 request (interim version until the wire-format work lands). */
public final class RequestEncoder {

    private RequestEncoder() {
    }

    public static void encode(RequestSpec spec, ByteBuf out) {
        URI uri = spec.uri();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path = path + "?" + uri.getRawQuery();
        }
        StringBuilder head = new StringBuilder(128).append(spec.method()).append(' ').append(path).append(" HTTP/1.1\r\n");
        boolean host = false;
        for (Map.Entry<String, String> h : spec.headers().entrySet()) {
            host |= h.getKey().equalsIgnoreCase("Host");
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (!host) {
            head.append("Host: ").append(uri.getHost());
            if (uri.getPort() > 0) {
                head.append(':').append(uri.getPort());
            }
            head.append("\r\n");
        }
        head.append("User-Agent: loadsmith\r\n");
        if (spec.body() != null) {
            head.append("Content-Length: ").append(spec.body().length).append("\r\n");
        }
        head.append("\r\n");
        out.writeCharSequence(head, StandardCharsets.ISO_8859_1);
        if (spec.body() != null) {
            out.writeBytes(spec.body());
        }
    }

    public static byte[] encode(RequestSpec spec) {
        ByteBuf buf = Unpooled.buffer();
        encode(spec, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
