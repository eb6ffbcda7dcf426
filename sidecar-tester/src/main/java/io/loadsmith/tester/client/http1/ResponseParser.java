package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.transport.ServedBy;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * An HTTP/1.1 response parser for a load generator: it reads the status line and the framing of a
 * response and counts (or keeps) its body, and allocates nothing per response once warm.
 *
 * <p>One per connection, reused for every response on it; not thread-safe (the connection's event loop
 * owns it). Usage:
 * <pre>{@code
 * parser.begin(false, false);                 // before the response to the request just written
 * switch (parser.parse(buf)) {                // on every read; buf keeps any bytes after the response
 *     case NEED_MORE -> { }                   // wait for more bytes (or the close: parser.closed())
 *     case COMPLETE -> done(parser.status(), parser.keepAlive());
 *     case ERROR -> fail(parser.error(), parser.errorDetail());   // then close the connection
 * }
 * }</pre>
 *
 * <p>What it accepts: status lines {@code HTTP/1.x SP code [SP reason]} (HTTP/1.0 semantics for
 * {@code HTTP/1.0}, HTTP/1.1 for any higher minor version), codes 100-599; header names matched
 * case-insensitively byte by byte, only Content-Length, Transfer-Encoding and Connection interpreted;
 * lines ended by CRLF or a bare LF; a body framed by chunked transfer coding (extensions skipped,
 * trailers read and dropped), by Content-Length, or by the close of the connection; 1xx responses
 * (other than 101) skipped; no body for HEAD, 204 and 304. What it refuses ({@link ParseError}):
 * anything else in a status line, obs-fold and malformed header lines, control bytes in field values,
 * invalid or conflicting Content-Length, chunked applied twice, bad chunk sizes, and anything over a
 * {@link Limits limit}. The connection is reusable ({@link #keepAlive()}) unless the response says
 * {@code Connection: close} (HTTP/1.1) or lacks {@code Connection: keep-alive} (HTTP/1.0), its body
 * ends with the close, or it has both Transfer-Encoding and Content-Length (RFC 9112 section 6.3).
 *
 * <p>Input may be split at any byte: {@link #parse} keeps its position between calls.
 */
public final class ResponseParser {

    /**
     * Sizes past which a response is refused, in bytes.
     *
     * @param maxStatusLineBytes the status line with its line end
     * @param maxHeaderBytes     one whole header section (or trailer section) with its line ends and the
     *                           empty line that ends it, the status line excluded
     * @param maxChunkLineBytes  one chunk-size line with its extensions and line end
     * @param keptBodyBytes      how much of a body is kept when asked ({@link #begin}); the rest is counted
     */
    public record Limits(int maxStatusLineBytes, int maxHeaderBytes, int maxChunkLineBytes, int keptBodyBytes) {

        public Limits {
            if (maxStatusLineBytes <= 0 || maxHeaderBytes <= 0 || maxChunkLineBytes <= 0 || keptBodyBytes < 0) {
                throw new IllegalArgumentException("limits must be > 0 (kept body >= 0): " + maxStatusLineBytes
                        + ", " + maxHeaderBytes + ", " + maxChunkLineBytes + ", " + keptBodyBytes);
            }
        }

        /** 8 KiB status line, 64 KiB header section, 4 KiB chunk-size line, 1 MiB kept body. */
        public static Limits defaults() {
            return new Limits(8 * 1024, 64 * 1024, 4 * 1024, 1024 * 1024);
        }
    }

    /** What {@link #parse} or {@link #closed} found. */
    public enum Result { NEED_MORE, COMPLETE, ERROR }

    private static final byte[] EMPTY = new byte[0];
    private static final byte[] HTTP_1 = ascii("HTTP/1.");
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");
    private static final boolean[] TCHAR = tchars();

    /** Header kinds; also the bits of the name-matching mask. */
    private static final int OTHER = 0;
    private static final int H_CONTENT_LENGTH = 1;
    private static final int H_TRANSFER_ENCODING = 2;
    private static final int H_CONNECTION = 4;
    private static final int H_REPLICA = 8;
    private static final int ALL_NAMES = H_CONTENT_LENGTH | H_TRANSFER_ENCODING | H_CONNECTION | H_REPLICA;
    private static final byte[] REPLICA = ascii(ServedBy.HEADER.toLowerCase(Locale.ROOT));
    /** The longest replica id kept from a {@code Loadsmith-Replica} header (the rest is ignored). */
    private static final int MAX_REPLICA_BYTES = 128;

    // states, grouped: status line, header (and trailer) lines, chunk-size line, chunk end, bodies
    private static final int ST_VERSION = 0;
    private static final int ST_CODE = 1;
    private static final int ST_AFTER_CODE = 2;
    private static final int ST_REASON = 3;
    private static final int ST_LF = 4;
    private static final int HD_LINE_START = 5;
    private static final int HD_END_LF = 6;
    private static final int HD_NAME = 7;
    private static final int HD_VALUE = 8;
    private static final int HD_VALUE_LF = 9;
    private static final int CH_SIZE = 10;
    private static final int CH_SIZE_END = 11;
    private static final int CH_EXTENSION = 12;
    private static final int CH_LF = 13;
    private static final int CH_DATA_CR = 14;
    private static final int CH_DATA_LF = 15;
    private static final int CH_DATA = 16;
    private static final int BODY_LENGTH = 17;
    private static final int BODY_TO_CLOSE = 18;
    private static final int DONE = 19;

    private final Limits limits;

    private boolean head;
    private boolean keepBody;
    private Result result = Result.COMPLETE;
    private int state = DONE;
    private boolean started;
    private ParseError error;
    private String errorDetail;

    private int lineBytes;
    private int sectionBytes;
    private int position;
    private int status;
    private boolean http11;
    private boolean keepAlive;
    private boolean inTrailers;

    private int nameMask;
    private int nameLength;
    private final byte[] replicaId = new byte[MAX_REPLICA_BYTES];
    private int replicaLength;
    private boolean replicaIdDone;
    private int servedBy;
    private int header;

    private long contentLength;
    private long lengthValue;
    private int lengthDigits;
    private boolean lengthEnded;

    private boolean transferEncoding;
    private boolean lastCodingChunked;
    private int chunkedCount;
    private int codingsOnLine;
    private int codingLength;
    private boolean codingIsChunked;
    private boolean codingEnded;
    private boolean codingParameters;

    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private int optionLength;
    private boolean optionIsClose;
    private boolean optionIsKeepAlive;
    private boolean optionEnded;
    private boolean optionBroken;

    private long chunkSize;
    private int chunkDigits;
    private long remaining;
    private long bodyBytes;
    private byte[] kept;
    private int keptLength;

    public ResponseParser(Limits limits) {
        this.limits = limits;
    }

    /**
     * Starts the next response. head: the request was HEAD (no body whatever the headers say);
     * keepBody: keep up to {@link Limits#keptBodyBytes()} of the body (for a check), else the body is
     * only counted.
     */
    public void begin(boolean head, boolean keepBody) {
        this.head = head;
        this.keepBody = keepBody;
        result = Result.NEED_MORE;
        started = false;
        error = null;
        errorDetail = null;
        keepAlive = false;
        bodyBytes = 0;
        keptLength = 0;
        remaining = 0;
        startMessage();
    }

    /**
     * Consumes bytes of the current response from in (advancing its readerIndex) and stops at its end,
     * leaving any bytes after it in {@code in} (pipelined or leftover). 1xx responses are skipped (101 is
     * an error). Once COMPLETE or ERROR, returns that again without reading until the next {@link #begin}.
     */
    public Result parse(ByteBuf in) {
        if (result != Result.NEED_MORE) {
            return result;
        }
        int index = in.readerIndex();
        int end = in.writerIndex();
        if (index < end) {
            started = true;
        }
        while (index < end && result == Result.NEED_MORE) {
            int s = state;
            if (s >= CH_DATA) {
                index += s == BODY_TO_CLOSE ? bodyToClose(in, index, end) : bodyOfLength(in, index, end);
            } else if (s <= ST_LF) {
                if (++lineBytes > limits.maxStatusLineBytes()) {
                    fail(ParseError.STATUS_LINE_TOO_LONG, "status line over " + limits.maxStatusLineBytes() + " bytes");
                } else {
                    statusByte(in.getByte(index++));
                }
            } else if (s <= HD_VALUE_LF) {
                if (++sectionBytes > limits.maxHeaderBytes()) {
                    fail(ParseError.HEADERS_TOO_LARGE, (inTrailers ? "trailer" : "header") + " section over "
                            + limits.maxHeaderBytes() + " bytes");
                } else {
                    headerByte(in.getByte(index++));
                }
            } else if (s <= CH_LF) {
                if (++lineBytes > limits.maxChunkLineBytes()) {
                    fail(ParseError.CHUNK_LINE_TOO_LONG, "chunk-size line over " + limits.maxChunkLineBytes() + " bytes");
                } else {
                    chunkLineByte(in.getByte(index++));
                }
            } else {
                chunkDataEndByte(in.getByte(index++));
            }
        }
        in.readerIndex(index);
        return result;
    }

    /**
     * The peer closed: COMPLETE if the body is delimited by the close (HTTP/1.0 or no length, body
     * allowed), else ERROR (CLOSED_BEFORE_RESPONSE when nothing of it came, CLOSED_MID_RESPONSE otherwise).
     * After COMPLETE or ERROR, returns that result unchanged.
     */
    public Result closed() {
        if (result != Result.NEED_MORE) {
            return result;
        }
        if (state == BODY_TO_CLOSE) {
            complete();
        } else if (started) {
            fail(ParseError.CLOSED_MID_RESPONSE, "closed by the peer in the middle of a response");
        } else {
            fail(ParseError.CLOSED_BEFORE_RESPONSE, "closed by the peer before any byte of the response");
        }
        return result;
    }

    /** The last result of {@link #parse} or {@link #closed} (NEED_MORE right after {@link #begin}). */
    public Result result() {
        return result;
    }

    /** The final status code (after 1xx responses), or 0 before the status line has been read. */
    /**
     * The replica that answered, as the response's {@code Loadsmith-Replica} header names it (a number of
     * {@link ServedBy}); {@link ServedBy#NONE} without the header.
     */
    public int servedBy() {
        return servedBy;
    }

    public int status() {
        return status;
    }

    /** May the connection carry another request after this response (false after an error). */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** Decoded body bytes so far (chunk framing excluded). */
    public long bodyBytes() {
        return bodyBytes;
    }

    /** The kept body (a copy; only with keepBody, at most {@link Limits#keptBodyBytes()}), else an empty array. */
    public byte[] body() {
        return keepBody && keptLength > 0 ? Arrays.copyOf(kept, keptLength) : EMPTY;
    }

    /** Null unless the last result was ERROR. */
    public ParseError error() {
        return error;
    }

    /** What was wrong, short, for a log; null unless the last result was ERROR. */
    public String errorDetail() {
        return errorDetail;
    }

    private void startMessage() {
        state = ST_VERSION;
        lineBytes = 0;
        sectionBytes = 0;
        position = 0;
        status = 0;
        http11 = false;
        inTrailers = false;
        contentLength = -1;
        transferEncoding = false;
        lastCodingChunked = false;
        chunkedCount = 0;
        connectionClose = false;
        connectionKeepAlive = false;
        servedBy = ServedBy.NONE;
    }

    // ---- status line

    private void statusByte(byte b) {
        switch (state) {
            case ST_VERSION -> version(b);
            case ST_CODE -> {
                if (b < '0' || b > '9' || position == 0 && (b < '1' || b > '5')) {
                    fail(ParseError.BAD_STATUS_LINE, "status code is not 3 digits from 100 to 599");
                    return;
                }
                status = status * 10 + (b - '0');
                if (++position == 3) {
                    state = ST_AFTER_CODE;
                }
            }
            case ST_AFTER_CODE -> {
                if (b == ' ') {
                    state = ST_REASON;
                } else if (b == '\r' || b == '\n') {
                    statusLineEnd(b);
                } else {
                    fail(ParseError.BAD_STATUS_LINE, "status code is not 3 digits from 100 to 599");
                }
            }
            case ST_REASON -> {
                if (b == '\r' || b == '\n' || isControl(b)) {
                    statusLineEnd(b);
                }
            }
            default -> { // ST_LF
                if (b == '\n') {
                    statusLineDone();
                } else {
                    fail(ParseError.BAD_STATUS_LINE, "CR not followed by LF in the status line");
                }
            }
        }
    }

    private void version(byte b) {
        if (position < HTTP_1.length) {
            if (b != HTTP_1[position]) {
                fail(ParseError.BAD_STATUS_LINE, "status line does not start with HTTP/1.");
                return;
            }
        } else if (position == HTTP_1.length) {
            if (b < '0' || b > '9') {
                fail(ParseError.BAD_STATUS_LINE, "HTTP version has no minor digit");
                return;
            }
            http11 = b != '0';
        } else if (b == ' ') {
            state = ST_CODE;
            position = 0;
            return;
        } else {
            fail(ParseError.BAD_STATUS_LINE, "no single space after the HTTP version");
            return;
        }
        position++;
    }

    private void statusLineEnd(byte b) {
        if (b == '\r') {
            state = ST_LF;
        } else if (b == '\n') {
            statusLineDone();
        } else {
            fail(ParseError.BAD_STATUS_LINE, "status line has a control byte 0x" + Integer.toHexString(b & 0xff));
        }
    }

    private void statusLineDone() {
        if (status == 101) {
            fail(ParseError.UPGRADE_NOT_SUPPORTED, "101 Switching Protocols: upgrades are not supported");
            return;
        }
        state = HD_LINE_START;
    }

    // ---- header and trailer lines

    private void headerByte(byte b) {
        switch (state) {
            case HD_LINE_START -> lineStart(b);
            case HD_END_LF -> {
                if (b == '\n') {
                    sectionEnd();
                } else {
                    fail(ParseError.BAD_HEADER, "CR not followed by LF");
                }
            }
            case HD_NAME -> {
                if (b == ':') {
                    valueStart();
                } else if (TCHAR[b & 0xff]) {
                    nameByte(b);
                } else {
                    fail(ParseError.BAD_HEADER, b == '\r' || b == '\n' ? "header line without a colon"
                            : "header name has a byte that is not a token character: 0x" + Integer.toHexString(b & 0xff));
                }
            }
            case HD_VALUE -> {
                if (b == '\r') {
                    state = HD_VALUE_LF;
                } else if (b == '\n') {
                    valueEnd();
                } else if (isControl(b)) {
                    fail(ParseError.BAD_HEADER, "control byte 0x" + Integer.toHexString(b & 0xff) + " in a header value");
                } else {
                    valueByte(b);
                }
            }
            default -> { // HD_VALUE_LF
                if (b == '\n') {
                    valueEnd();
                } else {
                    fail(ParseError.BAD_HEADER, "CR not followed by LF");
                }
            }
        }
    }

    private void lineStart(byte b) {
        if (b == '\r') {
            state = HD_END_LF;
        } else if (b == '\n') {
            sectionEnd();
        } else if (TCHAR[b & 0xff]) {
            nameMask = inTrailers || status < 200 ? 0 : ALL_NAMES;
            nameLength = 0;
            nameByte(b);
            state = HD_NAME;
        } else if (b == ' ' || b == '\t') {
            fail(ParseError.BAD_HEADER, "a header line starts with whitespace (obs-fold)");
        } else {
            fail(ParseError.BAD_HEADER, "header name has a byte that is not a token character: 0x"
                    + Integer.toHexString(b & 0xff));
        }
    }

    private void nameByte(byte b) {
        int mask = nameMask;
        if (mask != 0) {
            int n = nameLength;
            byte lower = lower(b);
            if ((mask & H_CONTENT_LENGTH) != 0 && (n >= CONTENT_LENGTH.length || CONTENT_LENGTH[n] != lower)) {
                mask &= ~H_CONTENT_LENGTH;
            }
            if ((mask & H_TRANSFER_ENCODING) != 0 && (n >= TRANSFER_ENCODING.length || TRANSFER_ENCODING[n] != lower)) {
                mask &= ~H_TRANSFER_ENCODING;
            }
            if ((mask & H_CONNECTION) != 0 && (n >= CONNECTION.length || CONNECTION[n] != lower)) {
                mask &= ~H_CONNECTION;
            }
            if ((mask & H_REPLICA) != 0 && (n >= REPLICA.length || REPLICA[n] != lower)) {
                mask &= ~H_REPLICA;
            }
            nameMask = mask;
        }
        nameLength++;
    }

    private void valueStart() {
        int mask = nameMask;
        if ((mask & H_CONTENT_LENGTH) != 0 && nameLength == CONTENT_LENGTH.length) {
            header = H_CONTENT_LENGTH;
            lengthStart();
        } else if ((mask & H_TRANSFER_ENCODING) != 0 && nameLength == TRANSFER_ENCODING.length) {
            header = H_TRANSFER_ENCODING;
            codingsOnLine = 0;
            codingStart();
        } else if ((mask & H_CONNECTION) != 0 && nameLength == CONNECTION.length) {
            header = H_CONNECTION;
            optionStart();
        } else if ((mask & H_REPLICA) != 0 && nameLength == REPLICA.length) {
            header = H_REPLICA;
            replicaLength = 0;
            replicaIdDone = false;
        } else {
            header = OTHER;
        }
        state = HD_VALUE;
    }

    private void valueByte(byte b) {
        switch (header) {
            case H_CONTENT_LENGTH -> lengthByte(b);
            case H_TRANSFER_ENCODING -> codingByte(b);
            case H_CONNECTION -> optionByte(b);
            case H_REPLICA -> replicaByte(b);
            default -> { }
        }
    }

    private void replicaByte(byte b) {
        if (b == ';') {
            replicaIdDone = true;
        } else if (!replicaIdDone && b != ' ' && b != '\t' && replicaLength < MAX_REPLICA_BYTES) {
            replicaId[replicaLength++] = b;
        }
    }

    private void valueEnd() {
        switch (header) {
            case H_CONTENT_LENGTH -> lengthEnd();
            case H_TRANSFER_ENCODING -> {
                codingEnd();
                if (codingsOnLine == 0 && result == Result.NEED_MORE) {
                    fail(ParseError.BAD_TRANSFER_ENCODING, "empty Transfer-Encoding");
                }
            }
            case H_CONNECTION -> optionEnd();
            case H_REPLICA -> servedBy = replicaLength == 0 ? ServedBy.NONE
                    : ServedBy.number(new String(replicaId, 0, replicaLength, StandardCharsets.ISO_8859_1));
            default -> { }
        }
        if (result == Result.NEED_MORE) {
            state = HD_LINE_START;
        }
    }

    private void sectionEnd() {
        if (inTrailers) {
            complete();
        } else if (status < 200) {
            startMessage();
        } else {
            headersDone();
        }
    }

    /** The final response's header section has ended: decide the connection's fate and the body's framing. */
    private void headersDone() {
        if (chunkedCount > 1) {
            fail(ParseError.BAD_TRANSFER_ENCODING, "chunked applied more than once");
            return;
        }
        keepAlive = (http11 ? !connectionClose : connectionKeepAlive && !connectionClose)
                && !(transferEncoding && (contentLength >= 0 || !http11));
        if (head || status == 204 || status == 304) {
            complete();
        } else if (transferEncoding && lastCodingChunked) {
            chunkLineStart();
        } else if (!transferEncoding && contentLength >= 0) {
            remaining = contentLength;
            if (remaining == 0) {
                complete();
            } else {
                state = BODY_LENGTH;
            }
        } else {
            keepAlive = false;
            state = BODY_TO_CLOSE;
        }
    }

    // ---- Content-Length: digits, or a list of equal values

    private void lengthStart() {
        lengthValue = 0;
        lengthDigits = 0;
        lengthEnded = false;
    }

    private void lengthByte(byte b) {
        if (b >= '0' && b <= '9') {
            int digit = b - '0';
            if (lengthEnded) {
                fail(ParseError.BAD_CONTENT_LENGTH, "Content-Length has a space between digits");
            } else if (lengthValue > (Long.MAX_VALUE - digit) / 10) {
                fail(ParseError.BAD_CONTENT_LENGTH, "Content-Length overflows a long");
            } else {
                lengthValue = lengthValue * 10 + digit;
                lengthDigits++;
            }
        } else if (b == ' ' || b == '\t') {
            lengthEnded = lengthDigits > 0;
        } else if (b == ',') {
            lengthEnd();
            lengthStart();
        } else {
            fail(ParseError.BAD_CONTENT_LENGTH, "Content-Length is not a number (byte '" + (char) (b & 0xff) + "')");
        }
    }

    private void lengthEnd() {
        if (lengthDigits == 0) {
            fail(ParseError.BAD_CONTENT_LENGTH, "empty Content-Length");
        } else if (contentLength >= 0 && contentLength != lengthValue) {
            fail(ParseError.BAD_CONTENT_LENGTH, "conflicting Content-Length values " + contentLength + " and " + lengthValue);
        } else {
            contentLength = lengthValue;
        }
    }

    // ---- Transfer-Encoding: a list of codings, each a token with optional parameters

    private void codingStart() {
        codingLength = 0;
        codingIsChunked = true;
        codingEnded = false;
        codingParameters = false;
    }

    private void codingByte(byte b) {
        if (codingParameters) {
            if (b == ',') {
                codingEnd();
            }
        } else if (TCHAR[b & 0xff]) {
            if (codingEnded) {
                fail(ParseError.BAD_TRANSFER_ENCODING, "Transfer-Encoding has a space inside a coding");
                return;
            }
            int n = codingLength++;
            codingIsChunked &= n < CHUNKED.length && CHUNKED[n] == lower(b);
        } else if (b == ' ' || b == '\t') {
            codingEnded = codingLength > 0;
        } else if (b == ';' && codingLength > 0) {
            codingParameters = true;
        } else if (b == ',') {
            codingEnd();
        } else {
            fail(ParseError.BAD_TRANSFER_ENCODING, "Transfer-Encoding has a byte that is not a token character");
        }
    }

    private void codingEnd() {
        if (codingLength > 0) {
            boolean chunked = codingIsChunked && codingLength == CHUNKED.length;
            if (chunked && codingParameters) {
                fail(ParseError.BAD_TRANSFER_ENCODING, "chunked takes no parameters");
                return;
            }
            transferEncoding = true;
            codingsOnLine++;
            if (chunked) {
                chunkedCount++;
            }
            lastCodingChunked = chunked;
        }
        codingStart();
    }

    // ---- Connection: a list of options; close and keep-alive matter

    private void optionStart() {
        optionLength = 0;
        optionIsClose = true;
        optionIsKeepAlive = true;
        optionEnded = false;
        optionBroken = false;
    }

    private void optionByte(byte b) {
        if (TCHAR[b & 0xff]) {
            int n = optionLength++;
            byte lower = lower(b);
            optionBroken |= optionEnded;
            optionIsClose &= n < CLOSE.length && CLOSE[n] == lower;
            optionIsKeepAlive &= n < KEEP_ALIVE.length && KEEP_ALIVE[n] == lower;
        } else if (b == ' ' || b == '\t') {
            optionEnded = optionLength > 0;
        } else if (b == ',') {
            optionEnd();
        } else {
            optionBroken = true;
        }
    }

    private void optionEnd() {
        if (!optionBroken) {
            connectionClose |= optionIsClose && optionLength == CLOSE.length;
            connectionKeepAlive |= optionIsKeepAlive && optionLength == KEEP_ALIVE.length;
        }
        optionStart();
    }

    // ---- chunked body

    private void chunkLineStart() {
        state = CH_SIZE;
        lineBytes = 0;
        chunkSize = 0;
        chunkDigits = 0;
    }

    private void chunkLineByte(byte b) {
        switch (state) {
            case CH_SIZE -> {
                int digit = hex(b);
                if (digit >= 0) {
                    if (chunkSize > (Long.MAX_VALUE >>> 4)) {
                        fail(ParseError.BAD_CHUNK_SIZE, "chunk size overflows a long");
                        return;
                    }
                    chunkSize = (chunkSize << 4) | digit;
                    chunkDigits++;
                } else if (chunkDigits == 0) {
                    fail(ParseError.BAD_CHUNK_SIZE, "chunk size is not hexadecimal (byte 0x" + Integer.toHexString(b & 0xff) + ")");
                } else {
                    chunkSizeEnd(b);
                }
            }
            case CH_SIZE_END -> chunkSizeEnd(b);
            case CH_EXTENSION -> {
                if (b == '\r') {
                    state = CH_LF;
                } else if (b == '\n') {
                    chunkLineDone();
                } else if (isControl(b)) {
                    fail(ParseError.BAD_CHUNK_SIZE, "control byte in a chunk extension");
                }
            }
            default -> { // CH_LF
                if (b == '\n') {
                    chunkLineDone();
                } else {
                    fail(ParseError.BAD_CHUNK_SIZE, "CR not followed by LF after a chunk size");
                }
            }
        }
    }

    private void chunkSizeEnd(byte b) {
        if (b == ' ' || b == '\t') {
            state = CH_SIZE_END;
        } else if (b == ';') {
            state = CH_EXTENSION;
        } else if (b == '\r') {
            state = CH_LF;
        } else if (b == '\n') {
            chunkLineDone();
        } else {
            fail(ParseError.BAD_CHUNK_SIZE, "chunk size is not hexadecimal (byte 0x" + Integer.toHexString(b & 0xff) + ")");
        }
    }

    private void chunkLineDone() {
        if (chunkSize == 0) {
            inTrailers = true;
            sectionBytes = 0;
            state = HD_LINE_START;
        } else {
            remaining = chunkSize;
            state = CH_DATA;
        }
    }

    private void chunkDataEndByte(byte b) {
        if (state == CH_DATA_CR && b == '\r') {
            state = CH_DATA_LF;
        } else if (b == '\n') {
            chunkLineStart();
        } else {
            fail(ParseError.BAD_CHUNK_SIZE, "chunk data not followed by CRLF");
        }
    }

    // ---- bodies

    private int bodyOfLength(ByteBuf in, int index, int end) {
        int n = (int) Math.min(remaining, end - index);
        keep(in, index, n);
        remaining -= n;
        if (remaining == 0) {
            if (state == BODY_LENGTH) {
                complete();
            } else {
                state = CH_DATA_CR;
            }
        }
        return n;
    }

    private int bodyToClose(ByteBuf in, int index, int end) {
        int n = end - index;
        keep(in, index, n);
        return n;
    }

    private void keep(ByteBuf in, int index, int n) {
        bodyBytes += n;
        int room = limits.keptBodyBytes() - keptLength;
        if (!keepBody || room <= 0) {
            return;
        }
        int m = Math.min(n, room);
        if (kept == null || kept.length < keptLength + m) {
            int size = Math.max(keptLength + m, Math.max(4096, kept == null ? 0 : kept.length * 2));
            kept = Arrays.copyOf(kept == null ? EMPTY : kept, Math.min(size, limits.keptBodyBytes()));
        }
        in.getBytes(index, kept, keptLength, m);
        keptLength += m;
    }

    private void complete() {
        result = Result.COMPLETE;
        state = DONE;
    }

    private void fail(ParseError kind, String detail) {
        error = kind;
        errorDetail = detail;
        keepAlive = false;
        result = Result.ERROR;
        state = DONE;
    }

    // ---- bytes

    /** Is c a token character (RFC 9110 tchar)? */
    static boolean isTokenChar(int c) {
        return c >= 0 && c < TCHAR.length && TCHAR[c];
    }

    private static boolean isControl(byte b) {
        return (b >= 0 && b < ' ' && b != '\t') || b == 0x7f;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    private static boolean[] tchars() {
        boolean[] t = new boolean[256];
        for (int c = '0'; c <= '9'; c++) {
            t[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            t[c] = true;
            t[c - ('a' - 'A')] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            t[c] = true;
        }
        return t;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
