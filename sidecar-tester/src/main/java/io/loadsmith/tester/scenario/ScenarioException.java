package io.loadsmith.tester.scenario;

/**
 * A scenario or experiment file (or a {@code --set} override) that cannot be run. The message is complete
 * and meant for the user as it is: {@code score.yaml:12: load.rate must be > 0 (got -5)}.
 */
public final class ScenarioException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ScenarioException(String message) {
        super(message);
    }

    public ScenarioException(String message, Throwable cause) {
        super(message, cause);
    }
}
