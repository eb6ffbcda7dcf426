package io.loadsmith.tester.verify;

/** A file {@code loadsmith verify} needs is missing or cannot be read; the message names it (and the line or field). */
public final class VerifyException extends RuntimeException {

    public VerifyException(String message) {
        super(message);
    }

    public VerifyException(String message, Throwable cause) {
        super(message, cause);
    }
}
