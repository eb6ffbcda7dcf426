package io.loadsmith.agent.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * One HTTP/1.1 GET on a connection opened in advance, timed on this JVM's {@code System.nanoTime()}
 * (the same clock as the child's on Linux): when it was sent and when its last byte arrived.
 */
final class RawHttp {

    private RawHttp() {
    }

    record Timed(int status, String body, long sentNanos, long endNanos, String head) {
        long latencyMillis() {
            return (endNanos - sentNanos) / 1_000_000;
        }

        /** The value of response header {@code name} (any case), or null. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }

    /** Opens a connection now; the returned call sends at {@code sendAtNanos}. */
    static Call prepare(int port, String path) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        socket.setSoTimeout(15_000);
        return new Call(socket, path);
    }

    static Timed get(int port, String path) throws IOException {
        try (Call call = prepare(port, path)) {
            return call.sendAt(System.nanoTime());
        }
    }

    static final class Call implements AutoCloseable {
        private final Socket socket;
        private final String path;

        Call(Socket socket, String path) {
            this.socket = socket;
            this.path = path;
        }

        Timed sendAt(long sendAtNanos) throws IOException {
            waitUntil(sendAtNanos);
            byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            OutputStream out = socket.getOutputStream();
            long sent = System.nanoTime();
            out.write(request);
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            int status = Integer.parseInt(head.substring(9, 12));
            String lower = head.toLowerCase(Locale.ROOT);
            String body;
            int lengthAt = lower.indexOf("content-length:");
            if (lengthAt >= 0) {
                int endOfLine = lower.indexOf("\r\n", lengthAt);
                int length = Integer.parseInt(lower.substring(lengthAt + 15, endOfLine).strip());
                body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            } else if (lower.contains("transfer-encoding: chunked")) {
                body = readChunked(in);
            } else {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            long end = System.nanoTime();
            return new Timed(status, body, sent, end, head);
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed in the response head: " + head);
                }
                head.write(b);
                matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
            }
            return head.toString(StandardCharsets.US_ASCII);
        }

        private static String readChunked(InputStream in) throws IOException {
            StringBuilder body = new StringBuilder();
            while (true) {
                String sizeLine = readLine(in);
                int size = Integer.parseInt(sizeLine.split(";")[0].strip(), 16);
                if (size == 0) {
                    readLine(in);
                    return body.toString();
                }
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                readLine(in);
            }
        }

        private static String readLine(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static void waitUntil(long nanos) {
        while (true) {
            long left = nanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            if (left > 2_000_000) {
                LockSupport.parkNanos(left - 1_000_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
