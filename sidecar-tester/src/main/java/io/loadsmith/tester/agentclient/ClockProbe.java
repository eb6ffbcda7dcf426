package io.loadsmith.tester.agentclient;

import io.loadsmith.stall.clock.Clock;

import java.io.IOException;

/**
 * Estimates the offset between the tester's clock and the agent's with several {@code GET /clock}
 * probes: each reads the tester's clock at t0, the server's {@code now_ns}, the tester's clock at t1; the
 * probe with the smallest round trip is kept, and then {@code offset = server_ns - (t0 + t1) / 2} and
 * {@code uncertainty = (t1 - t0) / 2} (rounded up, so it is never understated).
 *
 * <pre>{@code
 * ClockOffset offset = ClockProbe.measure(Clock.system(), admin::serverNanos, 9);
 * long testerNanos = offset.toTesterNanos(stall.startNanos());
 * }</pre>
 */
public final class ClockProbe {

    /** How many probes {@code run} takes when asked for none in particular. */
    public static final int DEFAULT_PROBES = 9;

    /** Reads the server's clock once (a {@code GET /clock}). */
    @FunctionalInterface
    public interface ServerClock {
        /** The server's {@code now_ns}. */
        long serverNanos() throws IOException;
    }

    private ClockProbe() {
    }

    /**
     * Takes {@code probes} probes and keeps the one with the smallest round trip.
     *
     * @param testerClock the tester's clock (the one its request records are on)
     * @param server      reads the server's clock
     * @param probes      how many probes, at least 1
     * @throws IOException the first failure of a probe (the agent could not be reached)
     */
    public static ClockOffset measure(Clock testerClock, ServerClock server, int probes) throws IOException {
        if (probes < 1) {
            throw new IllegalArgumentException("probes must be >= 1 (got " + probes + ")");
        }
        long bestRoundTripNanos = Long.MAX_VALUE;
        long bestOffsetNanos = 0;
        for (int i = 0; i < probes; i++) {
            long t0 = testerClock.nanoTime();
            long serverNanos = server.serverNanos();
            long t1 = testerClock.nanoTime();
            long roundTripNanos = t1 - t0;
            if (roundTripNanos < bestRoundTripNanos) {
                bestRoundTripNanos = roundTripNanos;
                // (t0 + t1) / 2 written so that it cannot overflow
                bestOffsetNanos = serverNanos - (t0 + roundTripNanos / 2);
            }
        }
        long uncertaintyNanos = (bestRoundTripNanos + 1) / 2;
        return new ClockOffset(bestOffsetNanos, uncertaintyNanos, bestRoundTripNanos, probes);
    }
}
