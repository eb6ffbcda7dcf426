package io.loadsmith.tester.experiment;

/** An experiment file that cannot be run; the message names the file, the line and the key. */
public final class ExperimentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ExperimentException(String message) {
        super(message);
    }
}
