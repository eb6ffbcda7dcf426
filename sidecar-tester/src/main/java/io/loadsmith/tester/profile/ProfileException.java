package io.loadsmith.tester.profile;

/** A pause profile or its source that cannot be used: the message names the file, and the line where it can. */
public final class ProfileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProfileException(String message) {
        super(message);
    }

    public ProfileException(String message, Throwable cause) {
        super(message, cause);
    }
}
