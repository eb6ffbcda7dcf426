package io.loadsmith.tester.grpc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * gRPC's length-prefixed messages on HTTP/2 (grpc/doc/PROTOCOL-HTTP2.md): a 1-byte compressed flag (0: not
 * compressed, the only kind sent and read here), a 4-byte big-endian length, then the message's bytes.
 */
public final class GrpcFraming {

    /** The bytes before each message. */
    public static final int PREFIX_BYTES = 5;

    private GrpcFraming() {
    }

    /** {@code message} behind an uncompressed prefix. */
    public static byte[] frame(byte[] message) {
        byte[] framed = new byte[PREFIX_BYTES + message.length];
        int length = message.length;
        framed[1] = (byte) (length >>> 24);
        framed[2] = (byte) (length >>> 16);
        framed[3] = (byte) (length >>> 8);
        framed[4] = (byte) length;
        System.arraycopy(message, 0, framed, PREFIX_BYTES, length);
        return framed;
    }

    /**
     * The one message of a unary answer's body.
     *
     * @throws GrpcException when the body is not exactly one whole uncompressed message
     */
    public static byte[] unframe(byte[] body) {
        if (body.length < PREFIX_BYTES) {
            throw new GrpcException("the answer has " + body.length + " bytes, less than a message's 5-byte prefix");
        }
        if (body[0] != 0) {
            throw new GrpcException("the answer's message is compressed (flag " + body[0] + "), which is not supported");
        }
        long length = (body[1] & 0xffL) << 24 | (body[2] & 0xff) << 16 | (body[3] & 0xff) << 8 | (body[4] & 0xff);
        if (length != body.length - PREFIX_BYTES) {
            throw new GrpcException("the answer's message says " + length + " bytes and " + (body.length - PREFIX_BYTES)
                    + " follow (one unary message expected)");
        }
        return Arrays.copyOfRange(body, PREFIX_BYTES, body.length);
    }

    /**
     * Every message of a streamed answer's body, in order.
     *
     * @throws GrpcException when a prefix is cut short, a message is compressed or runs past the body
     */
    public static List<byte[]> unframeAll(byte[] body) {
        List<byte[]> messages = new ArrayList<>();
        int at = 0;
        while (at < body.length) {
            if (body.length - at < PREFIX_BYTES) {
                throw new GrpcException("the answer ends inside a message's 5-byte prefix");
            }
            long length = (body[at + 1] & 0xffL) << 24 | (body[at + 2] & 0xff) << 16 | (body[at + 3] & 0xff) << 8
                    | (body[at + 4] & 0xff);
            if (length > body.length - at - PREFIX_BYTES) {
                throw new GrpcException("the answer's message says " + length + " bytes and "
                        + (body.length - at - PREFIX_BYTES) + " follow");
            }
            messages.add(unframe(Arrays.copyOfRange(body, at, at + PREFIX_BYTES + (int) length)));
            at += PREFIX_BYTES + (int) length;
        }
        return messages;
    }
}
