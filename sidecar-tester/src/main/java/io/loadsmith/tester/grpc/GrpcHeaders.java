package io.loadsmith.tester.grpc;

import java.util.LinkedHashMap;
import java.util.Map;

/** The header fields of a unary call on HTTP/2 (grpc/doc/PROTOCOL-HTTP2.md) that the tester sends and reads. */
public final class GrpcHeaders {

    public static final String CONTENT_TYPE = "application/grpc";
    /** In the answer's trailers, or its headers for a trailers-only answer: the status code, a decimal number. */
    public static final String STATUS = "grpc-status";
    /** Beside {@link #STATUS}: the status's text, percent-encoded ({@link GrpcStatus#message}). */
    public static final String MESSAGE = "grpc-message";
    public static final String TIMEOUT = "grpc-timeout";

    private GrpcHeaders() {
    }

    /**
     * The fields of a call: {@code content-type: application/grpc}, {@code te: trailers}, the deadline's
     * {@code grpc-timeout} when {@code deadlineNanos > 0}, then the metadata as given.
     */
    public static Map<String, String> request(Map<String, String> metadata, long deadlineNanos) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", CONTENT_TYPE);
        headers.put("te", "trailers");
        if (deadlineNanos > 0) {
            headers.put(TIMEOUT, GrpcTimeout.format(deadlineNanos));
        }
        headers.putAll(metadata);
        return headers;
    }

    /** Whether a response's content type is gRPC's ({@code application/grpc}, {@code application/grpc+proto}...). */
    public static boolean isGrpc(String contentType) {
        return contentType != null && (contentType.equals(CONTENT_TYPE) || contentType.startsWith(CONTENT_TYPE + "+")
                || contentType.startsWith(CONTENT_TYPE + ";"));
    }
}
