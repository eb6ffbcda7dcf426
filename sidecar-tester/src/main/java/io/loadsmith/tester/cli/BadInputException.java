package io.loadsmith.tester.cli;

/** Input the command cannot use: exit code {@link ExitCodes#BAD_INPUT}, the message shown as it is. */
public final class BadInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }
}
