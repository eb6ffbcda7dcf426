package io.loadsmith.tester.grpc;

/** A descriptor set, a message or an answer that gRPC steps cannot use; the message says what, for a user. */
public final class GrpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public GrpcException(String message) {
        super(message);
    }

    public GrpcException(String message, Throwable cause) {
        super(message, cause);
    }
}
