package io.loadsmith.tester.agentclient;

import java.io.IOException;

/**
 * A call to an agent's admin API failed. The message names the admin address and the call, and says what
 * to do; {@link #status()} is the HTTP status of the answer, or 0 when there was none (the agent could not
 * be reached, or it answered with something that is not the admin protocol).
 */
public final class AdminException extends IOException {

    private final int status;

    public AdminException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status of the answer; 0 if there was none. */
    public int status() {
        return status;
    }

    /** True when the agent answered that the request itself was wrong (400, 409, 413, 415). */
    public boolean badInput() {
        return status == 400 || status == 409 || status == 413 || status == 415;
    }
}
