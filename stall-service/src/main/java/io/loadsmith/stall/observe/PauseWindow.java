package io.loadsmith.stall.observe;

/**
 * One real pause, as observed. Times are nanoseconds of {@code System.nanoTime()} (the clock of the stall
 * windows).
 *
 * @param index                  its place among the windows of its observer, from 0, in the order they
 *                               were finalised (not always start order: a safepoint is finalised once JFR
 *                               has delivered it, up to ~2 s late, a sleeper window after that)
 * @param source                 which source saw it
 * @param label                  for a safepoint its VM operation and, for a collection, the collector and
 *                               cause ({@code GenCollectFull SerialOld (System.gc())}); for a sleeper window
 *                               {@value #ATTRIBUTED} (it overlaps a safepoint window), {@value #HOST} (it
 *                               does not) or {@value #UNATTRIBUTED} (JFR is off, or did not deliver in time)
 * @param startNanos             for a safepoint, when the VM began to bring threads to it; for the sleeper,
 *                               when it should have woken
 * @param endNanos               for a safepoint, when the VM began to release threads; for the sleeper, when
 *                               it did wake
 * @param operation              the VM operation(s) of a safepoint ({@code +}-joined), or null
 * @param gc                     the collector and cause of a collection in the safepoint, or null
 * @param timeToSafepointNanos   for a safepoint, how long bringing every thread to it took (part of the
 *                               window); 0 for the sleeper
 */
public record PauseWindow(long index, PauseSource source, String label, long startNanos, long endNanos,
                          String operation, String gc, long timeToSafepointNanos) {

    public static final String ATTRIBUTED = "attributed";
    public static final String HOST = "host";
    public static final String UNATTRIBUTED = "unattributed";

    /** How long the window lasted. */
    public long durationNanos() {
        return endNanos - startNanos;
    }

    PauseWindow withIndex(long newIndex) {
        return new PauseWindow(newIndex, source, label, startNanos, endNanos, operation, gc, timeToSafepointNanos);
    }

    boolean overlaps(long otherStartNanos, long otherEndNanos) {
        return startNanos - otherEndNanos < 0 && otherStartNanos - endNanos < 0;
    }
}
