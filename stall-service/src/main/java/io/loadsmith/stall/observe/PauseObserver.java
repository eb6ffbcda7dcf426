package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Records real pauses of this process as {@link PauseWindow}s on the clock of the stall windows, from two
 * sources (docs/pauses.md):
 * <ul>
 * <li>JFR, in-process ({@code RecordingStream}): one window per safepoint, from when the VM began to bring
 * threads to it to when it began to release them, labelled with the VM operation and, for a collection,
 * the collector and cause. JFR's own safepoints are reported like any other. JFR delivers about once a
 * second, so a safepoint window appears up to ~2 s after it ended.</li>
 * <li>A sleeper thread ({@value #SLEEPER_THREAD}, jHiccup's method): it parks 1 ms in a loop (its park can be
 * longer: cheaper, and coarser) and reports every wake-up later than its shortest loop by more than a
 * threshold (default 2 ms). It sees what JFR
 * cannot: a stopped process, CPU starvation, throttling. Its windows are labelled
 * {@link PauseWindow#ATTRIBUTED} when they overlap a safepoint window and {@link PauseWindow#HOST}
 * otherwise, once JFR has delivered past them ({@link PauseWindow#UNATTRIBUTED} without JFR, or when JFR
 * has not delivered within {@value #UNDELIVERED_AFTER_SECONDS} s).</li>
 * </ul>
 * The sleeper thread also commits, every {@value #SYNC_INTERVAL_MILLIS} ms (and at once when
 * {@link #requestSync} asks), the sync events that map JFR's ticks to the clock. {@link #safepointsOnly}
 * starts JFR without the sleeper: a thread ({@value #SYNC_THREAD}) then wakes only to commit them, and
 * nothing but safepoints is seen (not a stopped or starved process), with a thousandth of the sleeper's
 * wake-ups.
 *
 * <p><b>When it observes.</b> {@link #start} and {@link #safepointsOnly} observe from the call to
 * {@link #close}. {@link #whenArmed} observes only around the runs it is told of: it holds no thread and no
 * JFR recording until {@link #runArmed}, then observes until the run's end plus a grace
 * ({@link #DEFAULT_RUN_GRACE} by default; a later {@link #runArmed} extends it, {@link #runEnded} brings
 * the end forward to a disarm), takes a last clock sample, waits until JFR has delivered up to that end
 * (at most {@value #FINAL_WAIT_MILLIS} ms), and stops its threads and its recording. Each such period is
 * stored in the same bounded history, so {@link #pauses} serves the pauses of past runs too.
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
    /** Name of the thread that starts JFR once ahead of the first run ({@link #prepare}); it ends after. */
    public static final String PREPARE_THREAD = "loadsmith-pause-prepare";
    /** Name of the thread that commits the sync events when there is no sleeper ({@link #safepointsOnly}). */
    public static final String SYNC_THREAD = "loadsmith-pause-sync";
    /**
     * How long an observer of {@link #whenArmed} goes on observing after a run's end by default: longer than
     * the tester's default grace (10 s), after which it fetches {@code GET /pauses}, so that a tester run's
     * pauses are all in when it asks.
     */
    public static final Duration DEFAULT_RUN_GRACE = Duration.ofSeconds(30);
    /** {@link #jfrStatus()} of an observer of {@link #whenArmed} that has not run yet, or ran and stopped. */
    public static final String IDLE = "idle";
    /** {@link #jfrStatus()} of an observer of {@link #whenArmed} while {@link #prepare} starts JFR once. */
    public static final String PREPARING = "preparing";
    /** {@link #jfrStatus()} of an observer of {@link #whenArmed} that runs while its JFR stream starts. */
    public static final String STARTING = "starting";

    /**
     * The sleeper's park by default, jHiccup's resolution: a pause's start is known to within it. Each
     * wake-up costs some 12-20 µs of CPU on a virtual machine, so a thousand a second are 1-2 % of a core.
     */
    public static final int DEFAULT_SLEEPER_PARK_MILLIS = 1;
    /** The longest park a sleeper may be given: a pause's start is then known to within a tenth of a second. */
    public static final int MAX_SLEEPER_PARK_MILLIS = 100;
    /**
     * How often the sleeper, or the thread of {@link #safepointsOnly}, commits the sync events. JFR delivers
     * once a second, so samples taken more often are not seen sooner; and between samples a second apart
     * the mapping is still good to microseconds (the drift of JFR's counter from the clock over a second
     * added under 5 µs to the width of the samples; docs/pauses.md, {@code stall-service/bench/tick-spacing.sh}).
     * Ten times a second cost the observer's threads more CPU for nothing ({@code stall-service/bench/observer-parts.sh}).
     */
    static final int SYNC_INTERVAL_MILLIS = 1_000;
    static final int UNDELIVERED_AFTER_SECONDS = 10;
    /** How long the end of an observing period of {@link #whenArmed} waits for JFR to deliver up to it. */
    static final int FINAL_WAIT_MILLIS = 3_000;

    private final ObserverSettings settings;
    private final PauseStore store;
    private volatile String jfrStatus;

    // guarded by this
    private ObservingPeriod period;
    private boolean closed;

    private PauseObserver(Clock clock, long sleeperThresholdNanos, int maxRecords, boolean withSleeper, boolean withJfr,
                          long sleepNanos, long syncIntervalNanos, long runGraceNanos, JfrMemory jfrMemory) {
        this.settings = new ObserverSettings(clock, sleeperThresholdNanos, withSleeper, withJfr, sleepNanos,
                syncIntervalNanos, runGraceNanos, jfrMemory);
        this.store = new PauseStore(maxRecords, PAGE_SIZE);
        this.jfrStatus = !withJfr ? "off" : runGraceNanos >= 0 ? IDLE : "on";
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
        return started(new PauseObserver(clock, sleeperThresholdNanos, maxRecords, true, withJfr,
                DEFAULT_SLEEPER_PARK_MILLIS * 1_000_000L, SYNC_INTERVAL_MILLIS * 1_000_000L, -1, null));
    }

    /**
     * Starts both sources, the sleeper parking {@code sleeperPark} ({@value #DEFAULT_SLEEPER_PARK_MILLIS} to
     * {@value #MAX_SLEEPER_PARK_MILLIS} ms) instead of 1 ms.
     */
    public static PauseObserver start(Clock clock, Duration sleeperPark) {
        return start(clock, sleeperPark, null);
    }

    /**
     * {@link #start(Clock, Duration)} that sizes JFR's buffers with {@code jfrMemory} before it starts JFR (null:
     * JFR's sizes are left as they are; {@link JfrMemory} says when it leaves them anyway).
     */
    public static PauseObserver start(Clock clock, Duration sleeperPark, JfrMemory jfrMemory) {
        Objects.requireNonNull(clock, "clock");
        return started(new PauseObserver(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, true, true,
                checkedPark(sleeperPark), SYNC_INTERVAL_MILLIS * 1_000_000L, -1, jfrMemory));
    }

    /**
     * Starts the JFR source alone, without the sleeper: safepoint windows only, for a process that wants
     * them at the least cost (the tester observing itself). Its one thread besides JFR's
     * ({@value #SYNC_THREAD}) commits the sync events when it starts, then every
     * {@value #SYNC_INTERVAL_MILLIS} ms, and at once on {@link #requestSync}. A safepoint is finalised
     * once a sample after its end has been delivered: up to about 2 s after it ended, or one JFR flush
     * after a {@link #requestSync}. Without JFR ({@link #jfrStatus()} is then {@code off: ...}) it observes
     * nothing.
     */
    public static PauseObserver safepointsOnly(Clock clock) {
        return safepointsOnly(clock, SYNC_INTERVAL_MILLIS * 1_000_000L);
    }

    /** {@link #safepointsOnly(Clock)} whose thread commits the sync events every {@code syncIntervalNanos}. */
    static PauseObserver safepointsOnly(Clock clock, long syncIntervalNanos) {
        Objects.requireNonNull(clock, "clock");
        return started(new PauseObserver(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, false, true, 0,
                syncIntervalNanos, -1, null));
    }

    /** Both sources with the defaults, observing only around runs: {@link #whenArmed(Clock, Duration)}. */
    public static PauseObserver whenArmed(Clock clock) {
        return whenArmed(clock, DEFAULT_RUN_GRACE);
    }

    /**
     * An observer with both sources that observes nothing, and holds no thread and no JFR recording, until
     * {@link #runArmed}; from then until the run's end plus {@code grace} (see the class comment). Its
     * {@link #jfrStatus()} is {@value #IDLE} while it does not run.
     *
     * @param grace how long it goes on after a run's end, >= 0
     */
    public static PauseObserver whenArmed(Clock clock, Duration grace) {
        return whenArmed(clock, grace, Duration.ofMillis(DEFAULT_SLEEPER_PARK_MILLIS));
    }

    /**
     * {@link #whenArmed(Clock, Duration)} whose sleeper parks {@code sleeperPark} ({@value #DEFAULT_SLEEPER_PARK_MILLIS}
     * to {@value #MAX_SLEEPER_PARK_MILLIS} ms): fewer wake-ups, and a pause's start known only to within the park.
     */
    public static PauseObserver whenArmed(Clock clock, Duration grace, Duration sleeperPark) {
        return whenArmed(clock, grace, sleeperPark, null);
    }

    /**
     * {@link #whenArmed(Clock, Duration, Duration)} that sizes JFR's buffers with {@code jfrMemory} before its
     * first JFR start (null: JFR's sizes are left as they are; {@link JfrMemory} says when it leaves them anyway).
     */
    public static PauseObserver whenArmed(Clock clock, Duration grace, Duration sleeperPark, JfrMemory jfrMemory) {
        Objects.requireNonNull(clock, "clock");
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("grace: must be >= 0 (got " + grace + ")");
        }
        return new PauseObserver(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, true, true,
                checkedPark(sleeperPark), SYNC_INTERVAL_MILLIS * 1_000_000L, grace.toNanos(), jfrMemory);
    }

    private static long checkedPark(Duration sleeperPark) {
        if (sleeperPark == null || sleeperPark.compareTo(Duration.ofMillis(DEFAULT_SLEEPER_PARK_MILLIS)) < 0
                || sleeperPark.compareTo(Duration.ofMillis(MAX_SLEEPER_PARK_MILLIS)) > 0) {
            throw new IllegalArgumentException("sleeperPark: must be from " + DEFAULT_SLEEPER_PARK_MILLIS + " to "
                    + MAX_SLEEPER_PARK_MILLIS + " ms (got " + sleeperPark + ")");
        }
        return sleeperPark.toNanos();
    }

    /**
     * An observer with every part chosen, observing until {@link #close}: for a bench that measures the
     * parts one at a time ({@code ObserverPartsBench}).
     *
     * @param sleepNanos        the sleeper's park (ignored without it)
     * @param syncIntervalNanos how often the clock samples are committed
     */
    static PauseObserver started(Clock clock, boolean withSleeper, boolean withJfr, long sleepNanos, long syncIntervalNanos) {
        return started(new PauseObserver(clock, DEFAULT_SLEEPER_THRESHOLD_NANOS, MAX_RECORDS, withSleeper, withJfr,
                sleepNanos, syncIntervalNanos, -1, null));
    }

    /** Starts the period of an observer that observes until {@link #close}, its JFR stream on the caller's thread. */
    private static PauseObserver started(PauseObserver observer) {
        synchronized (observer) {
            ObservingPeriod first = observer.newPeriod(0);
            observer.period = first;
            if (observer.settings.withJfr()) {
                first.startJfr();
            }
            first.thread.start();
        }
        return observer;
    }

    /**
     * For an observer of {@link #whenArmed}: a run was armed at {@code armedAtNanos} (this observer's clock)
     * and ends {@code runNanos} later. Starts observing at once if it was not (its JFR stream starts on its
     * own thread: this call does not wait for it) and goes on until at least that end plus the grace. Does
     * nothing on any other observer or once closed; never throws (a failure to start is logged once).
     */
    public void runArmed(long armedAtNanos, long runNanos) {
        if (!settings.whenArmed()) {
            return;
        }
        long untilNanos = armedAtNanos + Math.max(0, runNanos) + settings.runGraceNanos();
        try {
            synchronized (this) {
                if (closed) {
                    return;
                }
                ObservingPeriod current = period;
                if (current != null && !current.stopped) {
                    if (untilNanos - current.untilNanos > 0) {
                        current.untilNanos = untilNanos;
                    }
                    return;
                }
                ObservingPeriod next = newPeriod(untilNanos);
                period = next;
                if (settings.withJfr()) {
                    jfrStatus = STARTING;
                }
                try {
                    next.thread.start();
                } catch (Throwable t) {
                    period = null;
                    throw t;
                }
            }
        } catch (Throwable t) {
            ObserverLog.once("period-start", "pause observer: observing could not start; this run's pauses are not observed", t);
        }
    }

    /**
     * For an observer of {@link #whenArmed}: the run ended at {@code endedAtNanos} (a disarm), so observing
     * stops the grace after it if that is sooner than planned. Does nothing on any other observer.
     */
    public synchronized void runEnded(long endedAtNanos) {
        ObservingPeriod current = period;
        if (!settings.whenArmed() || current == null || current.stopped) {
            return;
        }
        long untilNanos = endedAtNanos + settings.runGraceNanos();
        if (untilNanos - current.untilNanos < 0) {
            current.untilNanos = untilNanos;
        }
    }

    /** True while this observer observes: always from start to close, or during a run and its grace ({@link #whenArmed}). */
    public synchronized boolean running() {
        return period != null && !period.stopped;
    }

    /**
     * For an observer of {@link #whenArmed}: after {@code delay}, on a daemon thread ({@value #PREPARE_THREAD}),
     * starts and at once stops a JFR stream of its events, unless a run has begun by then. A JVM's first JFR
     * start costs about a second of CPU and a {@code RedefineClasses} safepoint (9 ms on a quiet box, 70 ms seen
     * on a busy one), later starts a few ms and none: done here, that first start is not inside the first run.
     * Does nothing on any other observer; never throws into the host (a failure is logged once).
     */
    public void prepare(Duration delay) {
        if (!settings.whenArmed() || !settings.withJfr()) {
            return;
        }
        synchronized (this) {
            if (closed || period != null) {
                return;
            }
            jfrStatus = PREPARING;
        }
        Thread thread = new Thread(() -> {
            try {
                Thread.sleep(delay.toMillis());
                synchronized (this) {
                    if (closed || period != null) {
                        return;
                    }
                }
                newPeriod(0).startAndCloseJfr();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                ObserverLog.once("jfr-prepare", "pause observer: JFR could not be started ahead of the first run (" + t + ")", null);
            } finally {
                synchronized (this) {
                    if (PREPARING.equals(jfrStatus)) {
                        jfrStatus = IDLE;
                    }
                }
            }
        }, PREPARE_THREAD);
        thread.setDaemon(true);
        thread.start();
    }

    /** True for an observer of {@link #whenArmed}, which observes only around runs. */
    public boolean whenArmedOnly() {
        return settings.whenArmed();
    }

    /**
     * {@code on} when safepoints are observed through JFR, {@value #IDLE} while an observer of
     * {@link #whenArmed} does not run ({@value #PREPARING} while {@link #prepare} starts JFR once) and
     * {@value #STARTING} while its stream starts, else {@code off} or
     * {@code off: REASON} (kept while idle, until the next period tries again).
     */
    public String jfrStatus() {
        return jfrStatus;
    }

    /** Windows kept now: at most {@link #maxRecords()}, across observing periods. */
    public long recordsKept() {
        return store.kept();
    }

    /** The most windows kept; older ones are dropped and counted. */
    public int maxRecords() {
        return store.maxRecords();
    }

    /**
     * JFR's buffers as this observer's {@link JfrMemory} left them ({@link JfrMemory#status()}), or null for an
     * observer given none.
     */
    public Map<String, Object> jfrMemory() {
        return settings.jfrMemory() == null ? null : JfrMemory.status();
    }

    /** How long the sleeper parks, in nanoseconds (0 without a sleeper). */
    public long sleeperParkNanos() {
        return settings.withSleeper() ? settings.sleepNanos() : 0;
    }

    /** The sleeper's threshold, in nanoseconds. */
    public long sleeperThresholdNanos() {
        return settings.sleeperThresholdNanos();
    }

    /** The windows whose index is at least {@code sinceIndex}, by index, at most {@link #PAGE_SIZE}. */
    public PausePage pauses(long sinceIndex) {
        return store.page(sinceIndex);
    }

    /**
     * True once every window that ends at or before {@code nanos} (this observer's clock) is in
     * {@link #pauses}: JFR has delivered past that moment (no safepoint begun before it still waits for its
     * end) and every sleeper window ending by then is labelled. Without JFR, or while not running, windows
     * are stored at once, so always true. JFR delivers about once a second, up to ~2 s late: poll this with
     * a deadline.
     */
    public synchronized boolean finalisedUpTo(long nanos) {
        ObservingPeriod current = period;
        return current == null || current.finalisedUpTo(nanos);
    }

    /**
     * Asks the observer's thread to commit the sync events now rather than at its next interval, so that
     * {@link #finalisedUpTo} a moment already past becomes true after JFR's next flush: call it before
     * waiting on that (as the tester does at the end of a run). With the sleeper the sleeper commits them at
     * its next wake-up (within a millisecond), its loop left as it is.
     */
    public void requestSync() {
        ObservingPeriod current;
        synchronized (this) {
            current = period;
        }
        if (current != null) {
            current.syncRequested = true;
            if (!settings.withSleeper()) {
                LockSupport.unpark(current.thread);
            }
        }
    }

    /** Totals since this observer was made. */
    public PauseTotals totals() {
        return store.totals();
    }

    /** Stops both sources, for good. Idempotent. */
    @Override
    public void close() {
        ObservingPeriod current;
        synchronized (this) {
            closed = true;
            current = period;
            period = null;
        }
        if (current != null) {
            current.stop();
        }
    }

    // ---- what its periods tell it -----------------------------------------------------------------

    private ObservingPeriod newPeriod(long untilNanos) {
        return new ObservingPeriod(this, settings, store, untilNanos);
    }

    /** {@code ended} is over (its own thread ends it, or its run's end has passed): no period is current. */
    synchronized void periodOver(ObservingPeriod ended) {
        if (period == ended) {
            period = null;
        }
    }

    void jfrStatus(String status) {
        jfrStatus = status;
    }

    /** {@value #IDLE} once no period observes (a later one may have started meanwhile: then nothing). */
    synchronized void idleUnlessObserving() {
        if (period == null) {
            jfrStatus = IDLE;
        }
    }
}
