package io.loadsmith.tester.cli;

/** The target or the agent could not be reached: exit code {@link ExitCodes#UNREACHABLE}. */
public final class UnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnreachableException(String message) {
        super(message);
    }
}
