package io.loadsmith.tester.client.http1;

/** Why {@link ResponseParser} refused a response. Each ends the exchange; the connection must be closed. */
public enum ParseError {
    /** The status line is not {@code HTTP/1.x SP 3DIGIT [SP reason] CRLF}, or its code is outside 100-599. */
    BAD_STATUS_LINE,
    /** The status line is longer than {@link ResponseParser.Limits#maxStatusLineBytes()}. */
    STATUS_LINE_TOO_LONG,
    /** A header (or trailer) section is longer than {@link ResponseParser.Limits#maxHeaderBytes()}. */
    HEADERS_TOO_LARGE,
    /** A header line is malformed: no colon, a name that is not a token, a control byte, an obs-fold. */
    BAD_HEADER,
    /** Content-Length is empty, not digits, over a long, or two values disagree. */
    BAD_CONTENT_LENGTH,
    /** Transfer-Encoding is empty, malformed, or applies chunked more than once. */
    BAD_TRANSFER_ENCODING,
    /** A chunk-size is not hexadecimal, overflows a long, or chunk data is not followed by CRLF. */
    BAD_CHUNK_SIZE,
    /** A chunk-size line (with its extensions) is longer than {@link ResponseParser.Limits#maxChunkLineBytes()}. */
    CHUNK_LINE_TOO_LONG,
    /** The server answered 101 Switching Protocols. */
    UPGRADE_NOT_SUPPORTED,
    /** The peer closed before any byte of the response came. */
    CLOSED_BEFORE_RESPONSE,
    /** The peer closed in the middle of a response whose end is not the close. */
    CLOSED_MID_RESPONSE
}
