package io.loadsmith.tester.session;

/** The target, the agent or what a run needs could not be reached: the CLI exits with code 3. */
public final class UnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnreachableException(String message) {
        super(message);
    }
}
