package io.loadsmith.stall.admin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One exchange on a fresh loopback socket with bytes that need not be valid HTTP: writes them, half-closes
 * (so a server waiting for more sees the end), and reads until the server closes or the deadline passes.
 */
final class RawHttp {

    private static final Pattern STATUS_LINE = Pattern.compile("(?m)^HTTP/1\\.[01] (\\d{3})");

    /** How an exchange ended: {@code statuses} are every status line read, in order (empty: closed unanswered). */
    record Outcome(List<Integer> statuses, String text, boolean reset, boolean timedOut, long elapsedNanos) {

        /** The first final (not 1xx) status, or -1 when the server answered none. */
        int status() {
            return statuses.stream().filter(status -> status >= 200).findFirst().orElse(-1);
        }

        /** The first answer's body (after the blank line), or "" without one. */
        String body() {
            int start = text.indexOf("\r\n\r\n");
            return start < 0 ? "" : text.substring(start + 4);
        }
    }

    private RawHttp() {
    }

    /**
     * Sends {@code request} and reads the answer.
     *
     * @param deadlineMillis how long the whole exchange may take before it counts as timed out
     * @param maxReadBytes   how much of the answer is kept (the rest is read and dropped)
     */
    static Outcome exchange(InetSocketAddress address, byte[] request, int deadlineMillis, int maxReadBytes) throws IOException {
        return exchange(address, request, deadlineMillis, maxReadBytes, true);
    }

    /** As {@link #exchange(InetSocketAddress, byte[], int, int)}, but keeps sending open: a client that stops and waits. */
    static Outcome sendAndWait(InetSocketAddress address, byte[] request, int deadlineMillis, int maxReadBytes) throws IOException {
        return exchange(address, request, deadlineMillis, maxReadBytes, false);
    }

    private static Outcome exchange(InetSocketAddress address, byte[] request, int deadlineMillis, int maxReadBytes, boolean halfClose)
            throws IOException {
        long startNanos = System.nanoTime();
        long deadlineNanos = startNanos + deadlineMillis * 1_000_000L;
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        boolean reset = false;
        boolean timedOut = false;
        try (Socket socket = new Socket()) {
            socket.connect(address, deadlineMillis);
            socket.setSoLinger(true, 0);
            try {
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                if (halfClose) {
                    socket.shutdownOutput();
                }
            } catch (SocketException e) {
                reset = true; // the server closed while we wrote: read what it answered before that
            }
            timedOut = readUntilClosed(socket, answer, deadlineNanos, maxReadBytes);
        } catch (SocketException e) {
            reset = true;
        }
        String text = answer.toString(StandardCharsets.ISO_8859_1);
        return new Outcome(statuses(text), text, reset, timedOut, System.nanoTime() - startNanos);
    }

    /** Reads to the end of the stream; true if the deadline came first. */
    private static boolean readUntilClosed(Socket socket, ByteArrayOutputStream answer, long deadlineNanos, int maxReadBytes)
            throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        while (true) {
            long leftMillis = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0) {
                return true;
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMillis));
            int read;
            try {
                read = in.read(buffer);
            } catch (SocketTimeoutException e) {
                return true;
            }
            if (read < 0) {
                return false;
            }
            answer.write(buffer, 0, Math.max(0, Math.min(read, maxReadBytes - answer.size())));
        }
    }

    private static List<Integer> statuses(String text) {
        List<Integer> statuses = new ArrayList<>();
        Matcher matcher = STATUS_LINE.matcher(text);
        while (matcher.find()) {
            statuses.add(Integer.parseInt(matcher.group(1)));
        }
        return statuses;
    }
}
