package io.loadsmith.stall.admin;

/** A request the admin API refuses: answered with {@code status} and {@code {"error": message}}. */
final class AdminError extends Exception {

    private final int status;

    AdminError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static AdminError badRequest(String message) {
        return new AdminError(400, message);
    }

    int status() {
        return status;
    }
}
