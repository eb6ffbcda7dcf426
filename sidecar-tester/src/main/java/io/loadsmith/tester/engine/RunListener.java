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

    /** How late a send's own timer must fire to be reported to {@link #sendLate}: 1 ms. */
    long LATE_SEND_NANOS = 1_000_000L;

    /**
     * A send released by its own timer (an open arrival, a paced iteration, a think time) was released at
     * {@code releaseNanos}, more than {@link #LATE_SEND_NANOS} plus the tester's precision ({@code
     * load.precision}) after the {@code intendedNanos} it was due at:
     * the scheduler's loop did not run in between (a collection or safepoint of the tester's JVM, the host
     * starving it, or the loop busy with other work). Sends the model held back on purpose (waiting for a
     * concurrency slot, a paced catch-up) are not reported, nor is a wait inside the transport. Warm-up and
     * counted run alike; must be quick.
     */
    default void sendLate(long intendedNanos, long releaseNanos) {
    }
}
