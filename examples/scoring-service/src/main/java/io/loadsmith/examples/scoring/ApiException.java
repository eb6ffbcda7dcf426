package io.loadsmith.examples.scoring;

/** A request the service refuses: answered with {@code status} and {@code {"error": message}}. */
final class ApiException extends RuntimeException {

    private final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    int status() {
        return status;
    }
}
