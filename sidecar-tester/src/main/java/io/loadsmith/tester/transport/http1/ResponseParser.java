package io.loadsmith.tester.transport.http1;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/** An HTTP/1.1 response parser (interim version until the wire-format work lands). Not thread-safe. */
public final class ResponseParser {

    public record Limits(int maxStatusLineBytes, int maxHeaderBytes, int maxChunkLineBytes, int keptBodyBytes) {
        public static Limits defaults() {
            return new Limits(8192, 65536, 1024, 1 << 20);
        }
    }

    public enum Result { NEED_MORE, COMPLETE, ERROR }

    private enum State { STATUS, HEADERS, BODY_LENGTH, BODY_CLOSE, CHUNK_SIZE, CHUNK_DATA, CHUNK_CRLF, TRAILERS, DONE }

    private final Limits limits;
    private final byte[] line;
    private int lineLength;
    private State state = State.DONE;
    private boolean head;
    private boolean keepBody;
    private int status;
    private boolean keepAlive;
    private boolean http10;
    private long contentLength;
    private boolean chunked;
    private long remaining;
    private long bodyBytes;
    private byte[] body = new byte[0];
    private int bodyLength;
    private int headerBytes;
    private boolean started;
    private ParseError error;
    private String errorDetail;

    public ResponseParser(Limits limits) {
        this.limits = limits;
        this.line = new byte[Math.max(limits.maxStatusLineBytes(), Math.max(limits.maxHeaderBytes(), limits.maxChunkLineBytes()))];
    }

    public void begin(boolean head, boolean keepBody) {
        this.head = head;
        this.keepBody = keepBody;
        state = State.STATUS;
        status = 0;
        keepAlive = true;
        http10 = false;
        contentLength = -1;
        chunked = false;
        bodyBytes = 0;
        bodyLength = 0;
        lineLength = 0;
        headerBytes = 0;
        started = false;
        error = null;
        errorDetail = null;
    }

    public Result parse(ByteBuf in) {
        while (in.isReadable()) {
            started = true;
            switch (state) {
                case STATUS, HEADERS, CHUNK_SIZE, CHUNK_CRLF, TRAILERS -> {
                    int limit = state == State.STATUS ? limits.maxStatusLineBytes()
                            : state == State.CHUNK_SIZE || state == State.CHUNK_CRLF ? limits.maxChunkLineBytes()
                            : limits.maxHeaderBytes();
                    byte b = in.readByte();
                    if (b == '\n') {
                        int n = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                        lineLength = 0;
                        Result r = onLine(n);
                        if (r != null) {
                            return r;
                        }
                    } else {
                        if (lineLength >= limit || (state == State.HEADERS && ++headerBytes > limits.maxHeaderBytes())) {
                            return fail(state == State.STATUS ? ParseError.STATUS_LINE_TOO_LONG
                                    : state == State.HEADERS || state == State.TRAILERS ? ParseError.HEADERS_TOO_LARGE
                                    : ParseError.CHUNK_LINE_TOO_LONG, "line too long");
                        }
                        line[lineLength++] = b;
                    }
                }
                case BODY_LENGTH, CHUNK_DATA -> {
                    int take = (int) Math.min(remaining, in.readableBytes());
                    consumeBody(in, take);
                    remaining -= take;
                    if (remaining == 0) {
                        if (state == State.BODY_LENGTH) {
                            state = State.DONE;
                            return Result.COMPLETE;
                        }
                        state = State.CHUNK_CRLF;
                    }
                }
                case BODY_CLOSE -> consumeBody(in, in.readableBytes());
                case DONE -> {
                    return Result.COMPLETE;
                }
                default -> throw new IllegalStateException();
            }
        }
        return state == State.DONE ? Result.COMPLETE : Result.NEED_MORE;
    }

    private void consumeBody(ByteBuf in, int take) {
        if (keepBody) {
            int keep = Math.min(take, limits.keptBodyBytes() - bodyLength);
            if (keep > 0) {
                if (bodyLength + keep > body.length) {
                    body = Arrays.copyOf(body, Math.max(bodyLength + keep, body.length * 2));
                }
                in.getBytes(in.readerIndex(), body, bodyLength, keep);
                bodyLength += keep;
            }
        }
        in.skipBytes(take);
        bodyBytes += take;
    }

    private Result onLine(int n) {
        switch (state) {
            case STATUS -> {
                if (n < 12 || line[0] != 'H' || line[1] != 'T' || line[2] != 'T' || line[3] != 'P' || line[4] != '/' || line[8] != ' ') {
                    return fail(ParseError.BAD_STATUS_LINE, new String(line, 0, n));
                }
                http10 = line[7] == '0';
                keepAlive = !http10;
                status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
                if (status < 100 || status > 599) {
                    return fail(ParseError.BAD_STATUS_LINE, new String(line, 0, n));
                }
                if (status == 101) {
                    return fail(ParseError.UPGRADE_NOT_SUPPORTED, "101");
                }
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (n == 0) {
                    return endOfHeaders();
                }
                String text = new String(line, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                int colon = text.indexOf(':');
                if (colon <= 0) {
                    return fail(ParseError.BAD_HEADER, text);
                }
                String name = text.substring(0, colon).trim();
                String value = text.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    try {
                        contentLength = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        return fail(ParseError.BAD_CONTENT_LENGTH, value);
                    }
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase().endsWith("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    if (value.equalsIgnoreCase("close")) {
                        keepAlive = false;
                    } else if (value.equalsIgnoreCase("keep-alive")) {
                        keepAlive = true;
                    }
                }
            }
            case CHUNK_SIZE -> {
                long size = 0;
                int digits = 0;
                for (int i = 0; i < n && line[i] != ';' && line[i] != ' '; i++) {
                    int d = Character.digit(line[i], 16);
                    if (d < 0) {
                        return fail(ParseError.BAD_CHUNK_SIZE, new String(line, 0, n));
                    }
                    size = size * 16 + d;
                    digits++;
                }
                if (digits == 0) {
                    return fail(ParseError.BAD_CHUNK_SIZE, new String(line, 0, n));
                }
                if (size == 0) {
                    state = State.TRAILERS;
                } else {
                    remaining = size;
                    state = State.CHUNK_DATA;
                }
            }
            case CHUNK_CRLF -> {
                if (n != 0) {
                    return fail(ParseError.BAD_CHUNK_SIZE, "no CRLF after chunk data");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (n == 0) {
                    state = State.DONE;
                    return Result.COMPLETE;
                }
            }
            default -> throw new IllegalStateException();
        }
        return null;
    }

    private Result endOfHeaders() {
        if (status < 200) {
            state = State.STATUS;
            return null;
        }
        if (head || status == 204 || status == 304) {
            state = State.DONE;
            return Result.COMPLETE;
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength >= 0) {
            if (contentLength == 0) {
                state = State.DONE;
                return Result.COMPLETE;
            }
            remaining = contentLength;
            state = State.BODY_LENGTH;
        } else {
            keepAlive = false;
            state = State.BODY_CLOSE;
        }
        return null;
    }

    private Result fail(ParseError kind, String detail) {
        error = kind;
        errorDetail = detail;
        state = State.DONE;
        return Result.ERROR;
    }

    public Result closed() {
        if (state == State.BODY_CLOSE) {
            state = State.DONE;
            return Result.COMPLETE;
        }
        return fail(started ? ParseError.CLOSED_MID_RESPONSE : ParseError.CLOSED_BEFORE_RESPONSE, "closed");
    }

    public int status() {
        return status;
    }

    public boolean keepAlive() {
        return keepAlive;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    public byte[] body() {
        return Arrays.copyOf(body, bodyLength);
    }

    public ParseError error() {
        return error;
    }

    public String errorDetail() {
        return errorDetail;
    }
}
