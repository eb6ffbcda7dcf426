package io.loadsmith.tester.agentclient;

/**
 * How the agent's clock relates to the tester's: {@code server_ns = tester_ns + offsetNanos}, known to
 * within {@code uncertaintyNanos}. On one Linux host both read CLOCK_MONOTONIC and the offset is 0 within
 * the probe's round trip.
 *
 * @param offsetNanos      server clock minus tester clock, in nanoseconds
 * @param uncertaintyNanos half the round trip of the probe the offset came from (>= 0)
 * @param roundTripNanos   round trip of that probe (>= 0)
 * @param probes           how many probes were taken (the best one was kept)
 */
public record ClockOffset(long offsetNanos, long uncertaintyNanos, long roundTripNanos, int probes) {

    /** The offset of two processes that read the very same clock (no probe taken). */
    public static final ClockOffset SAME_CLOCK = new ClockOffset(0, 0, 0, 0);

    /** A moment read on the server's clock, on the tester's clock. */
    public long toTesterNanos(long serverNanos) {
        return serverNanos - offsetNanos;
    }

    /** A moment read on the tester's clock, on the server's clock. */
    public long toServerNanos(long testerNanos) {
        return testerNanos + offsetNanos;
    }

    /**
     * The offset to align with: 0 when the measured offset is within its uncertainty of 0 (the probe cannot
     * tell the two clocks apart, and on one host they are the same CLOCK_MONOTONIC: a noisy estimate would
     * only shift the windows by up to the uncertainty), else the measured offset.
     */
    public ClockOffset forAlignment() {
        if (Math.abs(offsetNanos) <= uncertaintyNanos) {
            return new ClockOffset(0, uncertaintyNanos, roundTripNanos, probes);
        }
        return this;
    }
}
