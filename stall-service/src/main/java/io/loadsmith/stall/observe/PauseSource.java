package io.loadsmith.stall.observe;

/** Where a pause window comes from. */
public enum PauseSource {
    /** A safepoint of this JVM, reported by JFR ({@code jdk.SafepointBegin} to {@code jdk.SafepointEnd}). */
    SAFEPOINT("safepoint"),
    /** A late wake-up of the sleeper thread: the process as a whole did not run (safepoint, stop, starvation). */
    SLEEPER("sleeper");

    private final String wireName;

    PauseSource(String wireName) {
        this.wireName = wireName;
    }

    /** The name on the wire ({@code safepoint}, {@code sleeper}). */
    public String wireName() {
        return wireName;
    }
}
