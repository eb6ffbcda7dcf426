package io.loadsmith.tester.grpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The gRPC status codes (grpc/doc/statuscodes.md), by number and by name, and the status of an answer from
 * its {@code grpc-status} and {@code grpc-message} fields or, without them, from its HTTP status.
 */
public enum GrpcStatus {
    OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED,
    RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS,
    UNAUTHENTICATED;

    private static final GrpcStatus[] BY_CODE = values();

    /** The status's number on the wire (0 to 16). */
    public int code() {
        return ordinal();
    }

    /** The status of number {@code code}; {@link #UNKNOWN} for a number gRPC does not define. */
    public static GrpcStatus ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }

    /** The status named {@code name} in any case ({@code not_found}, {@code NOT_FOUND}), or empty. */
    public static Optional<GrpcStatus> named(String name) {
        for (GrpcStatus status : BY_CODE) {
            if (status.name().equals(name.strip().toUpperCase(Locale.ROOT))) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    /**
     * The status a {@code grpc-status} field gives: its decimal number, {@link #UNKNOWN} when it is not one
     * (gRPC's clients do the same).
     */
    public static GrpcStatus ofField(String value) {
        try {
            return ofCode(Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
    }

    /**
     * The status of a whole answer: its {@code grpc-status} field (from the trailers, or the headers of a
     * trailers-only answer) when it has one; else from its HTTP status ({@link #ofHttp}), and an HTTP 200
     * without the field {@link #INTERNAL}, as grpc-java reads it.
     *
     * @param statusField the {@code grpc-status} value, null when the answer has none
     */
    public static GrpcStatus ofAnswer(int httpStatus, String statusField) {
        if (statusField != null) {
            return ofField(statusField);
        }
        return httpStatus == 200 ? INTERNAL : ofHttp(httpStatus);
    }

    /**
     * The status of an answer without {@code grpc-status} (a proxy's error page, say), from its HTTP status,
     * as grpc/doc/http-grpc-status-mapping.md maps it: 400 INTERNAL, 401 UNAUTHENTICATED, 403
     * PERMISSION_DENIED, 404 UNIMPLEMENTED, 429, 502, 503 and 504 UNAVAILABLE, any other UNKNOWN.
     */
    public static GrpcStatus ofHttp(int httpStatus) {
        return switch (httpStatus) {
            case 400 -> INTERNAL;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404 -> UNIMPLEMENTED;
            case 429, 502, 503, 504 -> UNAVAILABLE;
            default -> UNKNOWN;
        };
    }

    /**
     * The text of a {@code grpc-message} field: percent-encoded UTF-8 on the wire; a {@code %} not followed by
     * two hex digits is kept as it is (the gRPC spec asks a client to be lenient).
     */
    public static String message(String field) {
        if (field == null || field.indexOf('%') < 0) {
            return field;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            int high = i + 2 < field.length() ? Character.digit(field.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(field.charAt(i + 2), 16);
            if (c == '%' && low >= 0) {
                bytes.write(high << 4 | low);
                i += 2;
            } else {
                byte[] text = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(text, 0, text.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
