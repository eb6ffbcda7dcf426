package io.loadsmith.tester.agentclient;

import io.loadsmith.tester.align.StallWindow;

/**
 * One stall as {@code GET /stalls} reports it, on the server's clock.
 *
 * @param index             the stall's index in its plan
 * @param plannedStartNanos when the plan said it would start (server clock)
 * @param startNanos        when the gate really closed (server clock)
 * @param endNanos          when it opened again (server clock)
 * @param held              requests the gate held during the window
 * @param kind              {@code block} or {@code spin}
 * @param runId             the run it belongs to (the {@code run_id} of its {@code /arm}); may be null
 */
public record ServerStall(int index, long plannedStartNanos, long startNanos, long endNanos, long held,
                          String kind, String runId) {

    /** The window on the tester's clock. */
    public StallWindow onTesterClock(ClockOffset offset) {
        return new StallWindow(index, offset.toTesterNanos(startNanos), offset.toTesterNanos(endNanos), held);
    }

    /** The window on the tester's clock, as one of {@code replica}'s ({@link StallWindow#replica()}). */
    public StallWindow onTesterClock(ClockOffset offset, int replica) {
        return new StallWindow(index, offset.toTesterNanos(startNanos), offset.toTesterNanos(endNanos), held, replica);
    }
}
