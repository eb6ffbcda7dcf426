package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Records real pauses of this process as {@link PauseWindow}s on the clock of the stall windows, from two
 * sources (docs/pauses.md):
 * <ul>
 * <li>JFR, in-process ({@code RecordingStream}): one window per safepoint, from when the VM began to bring
 * threads to it to when it began to release them, labelled with the VM operation and, for a collection,
 * the collector and cause. JFR's own safepoints are reported like any other. JFR delivers about once a
 * second, so a safepoint window appears up to ~2 s after it ended.</li>
 * <li>A sleeper thread ({@value #SLEEPER_THREAD}, jHiccup's method): it parks 1 ms in a loop and reports
 * every wake-up later than its shortest loop by more than a threshold (default 2 ms). It sees what JFR
 * cannot: a stopped process, CPU starvation, throttling. Its windows are labelled
 * {@link PauseWindow#ATTRIBUTED} when they overlap a safepoint window and {@link PauseWindow#HOST}
 * otherwise, once JFR has delivered past them ({@link PauseWindow#UNATTRIBUTED} without JFR, or when JFR
 * has not delivered within {@value #UNDELIVERED_AFTER_SECONDS} s).</li>
 * </ul>
 * The sleeper thread also commits, every {@value #SYNC_INTERVAL_MILLIS} ms, the sync events that map JFR's
 * ticks to the clock. {@link #safepointsOnly} starts JFR without the sleeper: a thread
 * ({@value #SYNC_THREAD}) then wakes every {@value #SYNC_ONLY_INTERVAL_MILLIS} ms only to commit them (and
 * at once when {@link #requestSync} asks), and nothing but safepoints is seen (not a stopped or starved
 * process), with a thousandth of the sleeper's wake-ups.
 *
 * <p>The most recent {@code maxRecords} windows are kept; older ones are dropped and counted. The threads
 * are daemons; nothing here throws into the host once started: an error is logged once
 * ({@code System.Logger} {@code io.loadsmith.stall.observe}) and that source stops or goes on without it.
 * Thread-safe. The clock must be {@code Clock.system()} for safepoint windows to be on it.
 */
public final class PauseObserver implements AutoCloseable {

    /** Windows kept by default; older ones are dropped and counted. */
    public static final int MAX_RECORDS = 100_000;
    /** Most windows one {@link #pauses} call returns. */
    public static final int PAGE_SIZE = 10_000;
    /** The sleeper reports wake-ups later than its shortest loop by more than this, by default. */
    public static final long DEFAULT_SLEEPER_THRESHOLD_NANOS = 2_000_000;
    /** Name of the sleeper thread. */
    public static final String SLEEPER_THREAD = "loadsmith-pause-sleeper";
    /** Name of the thread that commits the sync events when there is no sleeper ({@link #safepointsOnly}). */
    public static final String SYNC_THREAD = "loadsmith-pause-sync";

    static final long SLEEP_NANOS = 1_000_000;
    static final int SYNC_INTERVAL_MILLIS = 100;
    /**
     * How often the thread of {@link #safepointsOnly} commits the sync events. JFR delivers once a second,
     * so samples taken more often are not seen sooner; and between samples a second apart the mapping is
     * still good to microseconds (the drift of JFR's counter from the clock over a second added under 5 µs
     * to the width of the samples; docs/pauses.md, {@code stall-service/bench/tick-spacing.sh}).
     */
    static final int SYNC_ONLY_INTERVAL_MILLIS = 1_000;
    static final int UNDELIVERED_AFTER_SECONDS = 10;
    private static final long SYNC_INTERVAL_NANOS = SYNC_INTERVAL_MILLIS * 1_000_000L;
    private static final long UNDELIVERED_AFTER_NANOS = UNDELIVERED_AFTER_SECONDS * 1_000_000_000L;
    private static final long RECENT_SAFEPOINTS_NANOS = 60_000_000_000L;
    private static final int MAX_RECENT_SAFEPOINTS = 4096;
    private static final int MAX_PENDING_SLEEPER = 4096;

    private static final System.Logger LOG = System.getLogger("io.loadsmith.stall.observe");
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private final Clock clock;
    private final long sleeperThresholdNanos;
    private final PauseStore store;
    private final Thread sleeper;
    private final boolean withSleeper;
    private final long syncOnlyIntervalNanos;
    private volatile boolean syncRequested;
    private volatile SafepointStream jfr;
    private volatile String jfrStatus;
    private volatile boolean closed;

    // guarded by this
    private final ArrayDeque<PauseWindow> recentSafepoints = new ArrayDeque<>();
    private final ArrayDeque<PauseWindow> pendingSleeper = new ArrayDeque<>();
    private long deliveredUpToNanos;
    private boolean delivered;
    private long openSinceNanos;
    private boolean noneOpen = true;

    private PauseObserver(Clock clock, long sleeperThresholdNanos, int maxRecords, boolean withSleeper,
                          long syncOnlyIntervalNanos) {
        this.clock = clock;
        this.sleeperThresholdNanos = sleeperThresholdNanos;
        this.store = new PauseStore(maxRecords, PAGE_SIZE);
        this.withSleeper = withSleeper;
        this.syncOnlyIntervalNanos = syncOnlyIntervalNanos;
        this.sleeper = withSleeper ? new Thread(this::sleep, SLEEPER_THREAD) : new Thread(this::syncOnly, SYNC_THREAD);
        sleeper.setDaemon(true);
    }

    /** Starts both sources with the defaults. */
    public static PauseObserver start(Clock clock) {
        return start(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, true);
    }

    /**
     * Starts observing.
     *
     * @param sleeperThresholdNanos the sleeper reports wake-ups later than its shortest loop by more than this
     * @param maxRecords            windows kept (older ones are dropped and counted), >= 1
     * @param withJfr               false: the sleeper only (its windows are then {@link PauseWindow#UNATTRIBUTED})
     */
    public static PauseObserver start(Clock clock, long sleeperThresholdNanos, int maxRecords, boolean withJfr) {
        Objects.requireNonNull(clock, "clock");
        if (sleeperThresholdNanos <= 0) {
            throw new IllegalArgumentException("sleeperThresholdNanos: must be > 0 (got " + sleeperThresholdNanos + ")");
        }
        if (maxRecords < 1) {
            throw new IllegalArgumentException("maxRecords: must be >= 1 (got " + maxRecords + ")");
        }
        PauseObserver observer = new PauseObserver(clock, sleeperThresholdNanos, maxRecords, true, 0);
        observer.jfrStatus = withJfr ? observer.startJfr() : "off";
        observer.sleeper.start();
        return observer;
    }

    /**
     * Starts the JFR source alone, without the sleeper: safepoint windows only, for a process that wants
     * them at the least cost (the tester observing itself). Its one thread besides JFR's
     * ({@value #SYNC_THREAD}) commits the sync events when it starts, then every
     * {@value #SYNC_ONLY_INTERVAL_MILLIS} ms, and at once on {@link #requestSync}. A safepoint is finalised
     * once a sample after its end has been delivered: up to about 2 s after it ended, or one JFR flush
     * after a {@link #requestSync}. Without JFR ({@link #jfrStatus()} is then {@code off: ...}) it observes
     * nothing.
     */
    public static PauseObserver safepointsOnly(Clock clock) {
        return safepointsOnly(clock, SYNC_ONLY_INTERVAL_MILLIS * 1_000_000L);
    }

    /** {@link #safepointsOnly(Clock)} whose thread commits the sync events every {@code syncIntervalNanos}. */
    static PauseObserver safepointsOnly(Clock clock, long syncIntervalNanos) {
        Objects.requireNonNull(clock, "clock");
        PauseObserver observer = new PauseObserver(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, false,
                syncIntervalNanos);
        observer.jfrStatus = observer.startJfr();
        observer.sleeper.start();
        return observer;
    }

    private String startJfr() {
        try {
            jfr = SafepointStream.start(clock, new Sink());
            return "on";
        } catch (Throwable t) {
            logOnce("jfr-start", "pause observer: JFR is not available, safepoints are not observed (" + t + ")", null);
            return "off: " + t;
        }
    }

    /** {@code on} when safepoints are observed through JFR, else {@code off} or {@code off: REASON}. */
    public String jfrStatus() {
        return jfrStatus;
    }

    /** The sleeper's threshold, in nanoseconds. */
    public long sleeperThresholdNanos() {
        return sleeperThresholdNanos;
    }

    /** The windows whose index is at least {@code sinceIndex}, by index, at most {@link #PAGE_SIZE}. */
    public PausePage pauses(long sinceIndex) {
        return store.page(sinceIndex);
    }

    /**
     * True once every window that ends at or before {@code nanos} (this observer's clock) is in
     * {@link #pauses}: JFR has delivered past that moment (no safepoint begun before it still waits for its
     * end) and every sleeper window ending by then is labelled. Without JFR, windows are stored at once, so
     * always true. JFR delivers about once a second, up to ~2 s late: poll this with a deadline.
     */
    public synchronized boolean finalisedUpTo(long nanos) {
        if (jfr == null) {
            return true;
        }
        boolean safepointsIn = delivered && nanos - deliveredUpToNanos <= 0 && (noneOpen || nanos - openSinceNanos < 0);
        PauseWindow oldestPending = pendingSleeper.peekFirst();
        return safepointsIn && (oldestPending == null || oldestPending.endNanos() - nanos > 0);
    }

    /**
     * Asks the observer's thread to commit the sync events now rather than at its next interval, so that
     * {@link #finalisedUpTo} a moment already past becomes true after JFR's next flush: call it before
     * waiting on that (as the tester does at the end of a run). With the sleeper (every
     * {@value #SYNC_INTERVAL_MILLIS} ms anyway) the sleeper commits them at its next wake-up, its loop left
     * as it is.
     */
    public void requestSync() {
        syncRequested = true;
        if (!withSleeper) {
            LockSupport.unpark(sleeper);
        }
    }

    /** Totals since start. */
    public PauseTotals totals() {
        return store.totals();
    }

    /** Stops both sources. Idempotent. */
    @Override
    public void close() {
        closed = true;
        sleeper.interrupt();
        SafepointStream stream = jfr;
        jfr = null;
        if (stream != null) {
            try {
                stream.close();
            } catch (RuntimeException e) {
                logOnce("jfr-close", "pause observer: closing the JFR stream failed", e);
            }
        }
    }

    // ---- the sleeper thread -----------------------------------------------------------------------

    private void sleep() {
        try {
            long shortestNanos = Long.MAX_VALUE;
            long nextSyncNanos = clock.nanoTime();
            while (!closed) {
                long t0 = clock.nanoTime();
                LockSupport.parkNanos(SLEEP_NANOS);
                long t1 = clock.nanoTime();
                long deltaNanos = t1 - t0;
                shortestNanos = Math.min(shortestNanos, deltaNanos);
                if (deltaNanos - shortestNanos > sleeperThresholdNanos) {
                    sleeperWindow(new PauseWindow(0, PauseSource.SLEEPER, PauseWindow.UNATTRIBUTED,
                            t0 + shortestNanos, t1, null, null, 0));
                }
                if (t1 - nextSyncNanos >= 0 || syncRequested) {
                    nextSyncNanos = t1 + SYNC_INTERVAL_NANOS;
                    syncRequested = false;
                    sync();
                    finishSleeperWindows(clock.nanoTime());
                }
            }
        } catch (Throwable t) {
            logOnce("sleeper", "pause observer: the sleeper thread stopped", t);
        }
    }

    private void syncOnly() {
        try {
            long nextSyncNanos = clock.nanoTime();
            while (!closed) {
                long now = clock.nanoTime();
                if (now - nextSyncNanos >= 0 || syncRequested) {
                    syncRequested = false;
                    sync();
                    nextSyncNanos = clock.nanoTime() + syncOnlyIntervalNanos;
                }
                // an unpark (requestSync) or a spurious return ends the park early; the loop looks again
                LockSupport.parkNanos(Math.max(1, nextSyncNanos - clock.nanoTime()));
            }
        } catch (Throwable t) {
            logOnce("sync", "pause observer: the sync thread stopped", t);
        }
    }

    private void sync() {
        SafepointStream stream = jfr;
        if (stream == null) {
            return;
        }
        try {
            stream.sync();
        } catch (RuntimeException e) {
            logOnce("jfr-sync", "pause observer: committing a JFR sync event failed", e);
        }
    }

    private synchronized void sleeperWindow(PauseWindow window) {
        pendingSleeper.addLast(window);
        if (pendingSleeper.size() > MAX_PENDING_SLEEPER) {
            store.add(pendingSleeper.removeFirst());
        }
        finishSleeperWindows(window.endNanos());
    }

    /** Labels and stores the pending sleeper windows that can be labelled now, oldest first. */
    private synchronized void finishSleeperWindows(long nowNanos) {
        boolean withJfr = jfr != null;
        while (!pendingSleeper.isEmpty()) {
            PauseWindow window = pendingSleeper.peekFirst();
            String label;
            if (!withJfr) {
                label = PauseWindow.UNATTRIBUTED;
            } else if (delivered && window.endNanos() - deliveredUpToNanos <= 0
                    && (noneOpen || window.endNanos() - openSinceNanos < 0)) {
                label = overlapsSafepoint(window) ? PauseWindow.ATTRIBUTED : PauseWindow.HOST;
            } else if (nowNanos - window.endNanos() > UNDELIVERED_AFTER_NANOS) {
                label = PauseWindow.UNATTRIBUTED;
            } else {
                return;
            }
            pendingSleeper.removeFirst();
            store.add(new PauseWindow(0, window.source(), label, window.startNanos(), window.endNanos(), null, null, 0));
        }
    }

    private boolean overlapsSafepoint(PauseWindow window) {
        for (PauseWindow safepoint : recentSafepoints) {
            if (window.overlaps(safepoint.startNanos(), safepoint.endNanos())) {
                return true;
            }
        }
        return false;
    }

    // ---- the JFR stream thread --------------------------------------------------------------------

    private final class Sink implements SafepointStream.Sink {
        @Override
        public void safepoint(PauseWindow window) {
            synchronized (PauseObserver.this) {
                store.add(window);
                recentSafepoints.addLast(window);
                while (recentSafepoints.size() > MAX_RECENT_SAFEPOINTS
                        || window.endNanos() - recentSafepoints.peekFirst().endNanos() > RECENT_SAFEPOINTS_NANOS) {
                    recentSafepoints.removeFirst();
                }
            }
        }

        @Override
        public void delivered(long upToNanos, long openSince, boolean none) {
            synchronized (PauseObserver.this) {
                deliveredUpToNanos = upToNanos;
                delivered = true;
                openSinceNanos = openSince;
                noneOpen = none;
                finishSleeperWindows(clock.nanoTime());
            }
        }

        @Override
        public void stopped(Throwable cause) {
            SafepointStream stream = jfr;
            if (cause != null && !closed && stream != null) {
                jfr = null;
                try {
                    stream.close();
                } catch (RuntimeException ignored) {
                    // it failed already: the log line below says why
                }
                jfrStatus = "off: the JFR stream stopped (" + cause + ")";
                logOnce("jfr-stopped", "pause observer: the JFR stream stopped, safepoints are no longer observed", cause);
            }
        }

        @Override
        public void failed(String what, Throwable cause) {
            logOnce("jfr-" + what, "pause observer: handling " + what + " failed (logged once)", cause);
        }
    }

    private static void logOnce(String key, String message, Throwable cause) {
        if (!REPORTED.add(key)) {
            return;
        }
        try {
            if (cause == null) {
                LOG.log(System.Logger.Level.WARNING, message);
            } else {
                LOG.log(System.Logger.Level.WARNING, message, cause);
            }
        } catch (Throwable ignored) {
            // the log must never fail the host
        }
    }
}
