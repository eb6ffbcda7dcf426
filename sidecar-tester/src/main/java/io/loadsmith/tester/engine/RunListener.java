package io.loadsmith.tester.engine;

/** Hooks into a run, called on the scheduler's thread. */
public interface RunListener {

    /** Nothing. */
    RunListener NONE = new RunListener() {
    };

    /**
     * The counted run (after any warm-up) starts at {@code startNanos} on the scheduler's clock, a little
     * after this call ({@link TesterSpec#startDelay}). Arm stalls here so every tester meets them at the
     * same offsets from its own start. Must not block for long.
     */
    default void countedStart(long startNanos) {
    }
}
