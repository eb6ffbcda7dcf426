package io.loadsmith.stall.observe;

import java.util.ArrayDeque;

/**
 * Labels the sleeper's windows of one observing period against the safepoints its JFR stream delivers:
 * {@link PauseWindow#ATTRIBUTED} when a window overlaps a safepoint, {@link PauseWindow#HOST} otherwise,
 * once JFR has delivered past the window's end; {@link PauseWindow#UNATTRIBUTED} without a stream, at the
 * period's end, or when JFR has not delivered past it within {@link PauseObserver#UNDELIVERED_AFTER_SECONDS}
 * s. Every safepoint and labelled window goes to the store, windows in the order they ended.
 *
 * <p>Not thread-safe: guarded by the monitor of the observer whose period it serves.
 */
final class SleeperAttribution {

    private static final long UNDELIVERED_AFTER_NANOS = PauseObserver.UNDELIVERED_AFTER_SECONDS * 1_000_000_000L;
    private static final long RECENT_SAFEPOINTS_NANOS = 60_000_000_000L;
    private static final int MAX_RECENT_SAFEPOINTS = 4096;
    private static final int MAX_PENDING_SLEEPER = 4096;

    private final PauseStore store;
    private final ArrayDeque<PauseWindow> recentSafepoints = new ArrayDeque<>();
    private final ArrayDeque<PauseWindow> pendingSleeper = new ArrayDeque<>();
    private long deliveredUpToNanos;
    private boolean delivered;
    private long openSinceNanos;
    private boolean noneOpen = true;

    SleeperAttribution(PauseStore store) {
        this.store = store;
    }

    /** Stores a safepoint window, and keeps it a while (a minute, 4096 at most) to label sleeper windows by. */
    void safepoint(PauseWindow window) {
        store.add(window);
        recentSafepoints.addLast(window);
        while (recentSafepoints.size() > MAX_RECENT_SAFEPOINTS
                || window.endNanos() - recentSafepoints.peekFirst().endNanos() > RECENT_SAFEPOINTS_NANOS) {
            recentSafepoints.removeFirst();
        }
    }

    /**
     * JFR has delivered every safepoint that began before {@code upToNanos}; {@code openSince}: the start of
     * the oldest one still open then, unless {@code none} is open.
     */
    void delivered(long upToNanos, long openSince, boolean none) {
        deliveredUpToNanos = upToNanos;
        delivered = true;
        openSinceNanos = openSince;
        noneOpen = none;
    }

    /** True once every safepoint and every sleeper window that ends by {@code nanos} is stored. */
    boolean finalisedUpTo(long nanos) {
        PauseWindow oldestPending = pendingSleeper.peekFirst();
        return deliveredPast(nanos) && (oldestPending == null || oldestPending.endNanos() - nanos > 0);
    }

    /** A window of the sleeper, labelled and stored as soon as it can be (at once {@code withoutStream}). */
    void sleeperWindow(PauseWindow window, boolean withStream) {
        pendingSleeper.addLast(window);
        if (pendingSleeper.size() > MAX_PENDING_SLEEPER) {
            store.add(pendingSleeper.removeFirst());
        }
        finish(window.endNanos(), false, withStream);
    }

    /**
     * Labels and stores the pending sleeper windows that can be labelled now, oldest first; with
     * {@code last} (the period ends) every one, those JFR has not delivered past as unattributed.
     */
    void finish(long nowNanos, boolean last, boolean withStream) {
        while (!pendingSleeper.isEmpty()) {
            PauseWindow window = pendingSleeper.peekFirst();
            String label;
            if (!withStream) {
                label = PauseWindow.UNATTRIBUTED;
            } else if (deliveredPast(window.endNanos())) {
                label = overlapsSafepoint(window) ? PauseWindow.ATTRIBUTED : PauseWindow.HOST;
            } else if (last || nowNanos - window.endNanos() > UNDELIVERED_AFTER_NANOS) {
                label = PauseWindow.UNATTRIBUTED;
            } else {
                return;
            }
            pendingSleeper.removeFirst();
            store.add(new PauseWindow(0, window.source(), label, window.startNanos(), window.endNanos(), null, null, 0));
        }
    }

    /** True when JFR has delivered past {@code nanos}: no safepoint begun before it still waits for its end. */
    private boolean deliveredPast(long nanos) {
        return delivered && nanos - deliveredUpToNanos <= 0 && (noneOpen || nanos - openSinceNanos < 0);
    }

    private boolean overlapsSafepoint(PauseWindow window) {
        for (PauseWindow safepoint : recentSafepoints) {
            if (window.overlaps(safepoint.startNanos(), safepoint.endNanos())) {
                return true;
            }
        }
        return false;
    }
}
