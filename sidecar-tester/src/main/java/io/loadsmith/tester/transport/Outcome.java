package io.loadsmith.tester.transport;

/** How one request ended. Everything but {@link #OK} counts as an error, except {@link #CANCELLED} (dropped). */
public enum Outcome {
    /** A response arrived and passed its status and body checks. */
    OK,
    /** A response arrived with a status the check does not accept. */
    HTTP_STATUS,
    /** A response arrived and its {@link ResponseCheck} failed. */
    CHECK_FAILED,
    /** The connection was refused (nothing listening). */
    REFUSED,
    /** The connection was reset or closed before the response ended. */
    RESET,
    /** The transport's own timeout fired. */
    TIMEOUT,
    /** {@link Transport#cancelAll()} ended it; the engine counts it as dropped. */
    CANCELLED,
    /** Anything else; the detail says what. */
    OTHER,
    /** The response was malformed or over a limit; the connection was closed. */
    BAD_RESPONSE,
    /**
     * A gRPC call ended with a status its check does not accept (without a check: any but OK), or passed its
     * deadline; the exchange's status is then the gRPC status code, whose name results count it by.
     */
    GRPC_STATUS;

    /** A whole response's outcome from its status and {@link ResponseCheck#verdict} (null: it passed). */
    public static Outcome ofResponse(int status, String failure) {
        return failure == null ? OK : status >= 400 ? HTTP_STATUS : CHECK_FAILED;
    }

    /**
     * A whole gRPC answer's outcome from its gRPC status code and its check's verdict (null: it passed): as
     * {@link #ofResponse} for HTTP, a failing check is {@link #GRPC_STATUS} unless the status was OK.
     */
    public static Outcome ofGrpc(int grpcCode, String failure) {
        return failure == null ? OK : grpcCode != 0 ? GRPC_STATUS : CHECK_FAILED;
    }
}
