package io.loadsmith.stall.control;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.clock.PreciseWait;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.gate.GateWindow;
import io.loadsmith.stall.jfr.StallEvents;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Opens and closes the stall windows of an armed {@link StallPlan} on a {@link StallGate}, on time, and
 * records every window as it really happened.
 *
 * <p>A dedicated daemon thread ({@value #THREAD_NAME}, exempt from every gate) waits for each planned
 * start with {@link PreciseWait} (park, then spin the last stretch, so a window opens microseconds after
 * its planned start, not a millisecond), opens the window, waits for its end (planned duration after the
 * real start) the same way, and closes it. With {@code burnCoreDuringSpin}, the thread busy-waits through
 * a {@code spin} window, burning one core for it. A {@code freeze} window is no gate window: the thread
 * hands it to the {@link Freezer} {@value #FREEZE_LEAD_NANOS} ns before its planned start (the freezer's
 * kernel timers stop the process at the start and continue it at the end, so a late wake-up of this thread
 * does not make the window late), and records the edges the freezer measured.
 *
 * <p>{@link #arm} replaces any plan from now (a window in progress ends at once); {@link #disarm} cancels
 * it (likewise); an armed plan expires by itself at its horizon. The most recent {@value #MAX_RECORDS}
 * windows are kept; older ones are dropped and counted ({@link StallPage#dropped()}), so memory stays
 * bounded on a service armed for days.
 *
 * <p>Every window is also a JFR event of this JVM ({@code loadsmith.Stall}, committed as it ends, and one
 * {@code loadsmith.HeldRequest} per request it held, committed by that request's thread at its release, off
 * unless a recording enables it: {@link StallEvents}), recorded by whatever recording of the JVM is open.
 *
 * <p>Thread-safe. All times are nanoseconds on the given clock ({@code Clock.system()} in production).
 */
public final class StallController implements AutoCloseable {

    /** Records kept; older ones are dropped and counted. */
    public static final int MAX_RECORDS = 100_000;
    /** Most records one {@link #stalls} call returns. */
    public static final int PAGE_SIZE = 10_000;
    /** Name of the controller's thread. */
    public static final String THREAD_NAME = "loadsmith-stall-controller";

    /**
     * How long before its planned start a freeze is handed to the freezer: more than this thread's wake-up is
     * late on a busy box (2.5 ms seen in a CI run). Meanwhile the lock is held, so an arm or disarm in the last
     * 20 ms before a freeze waits until it has ended.
     */
    static final long FREEZE_LEAD_NANOS = 20_000_000;

    private static final AtomicLong RUN_SEQUENCE = new AtomicLong();
    private static final Freezer NO_FREEZER = Freezer.refusing("this service has no freezer: freeze windows need the "
            + "loadsmith agent (docs/replaying-pauses.md)");

    private final Clock clock;
    private final StallGate gate;
    private final boolean burnCoreDuringSpin;
    private final Freezer freezer;
    private final StallEvents events = StallEvents.forThisJvm();
    private final Thread thread;

    private final Object lock = new Object();
    // guarded by lock
    private Run run;
    private Entry openEntry;
    private String lastRunId;
    private String freezeFailure;
    private boolean closed;

    // guarded by records (taken after lock, never before it)
    private final ArrayDeque<Entry> records = new ArrayDeque<>();
    private long dropped;
    private long droppedHeld;
    private long stallsTotal;
    private long stalledNanosTotal;

    /** A controller whose threads park during {@code spin} windows (only the held request threads spin). */
    public StallController(Clock clock, StallGate gate) {
        this(clock, gate, false);
    }

    /**
     * @param burnCoreDuringSpin if true, the controller's own thread also busy-waits through every
     *                           {@code spin} window (one more core burnt, like a co-located CPU hog)
     */
    public StallController(Clock clock, StallGate gate, boolean burnCoreDuringSpin) {
        this(clock, gate, burnCoreDuringSpin, NO_FREEZER);
    }

    /** A controller that freezes the process with {@code freezer} in {@code freeze} windows. */
    public StallController(Clock clock, StallGate gate, Freezer freezer) {
        this(clock, gate, false, freezer);
    }

    private StallController(Clock clock, StallGate gate, boolean burnCoreDuringSpin, Freezer freezer) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.burnCoreDuringSpin = burnCoreDuringSpin;
        this.freezer = Objects.requireNonNull(freezer, "freezer");
        this.thread = new Thread(this::loop, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /** The clock every time of this controller is on. */
    public Clock clock() {
        return clock;
    }

    /** The gate this controller opens windows on. */
    public StallGate gate() {
        return gate;
    }

    /** What stops the process in {@code freeze} windows. */
    public Freezer freezer() {
        return freezer;
    }

    /**
     * Arms {@code plan} from now, replacing any armed plan; a window in progress ends at once (and is
     * recorded as ended now).
     *
     * @throws IllegalStateException if the controller is closed, or the plan freezes and this process cannot
     *                               (the message says why)
     */
    public ArmResult arm(StallPlan plan) {
        return arm(plan, null);
    }

    /**
     * {@link #arm(StallPlan)} under a run id the caller chose (null: a new one), so that several clients
     * that agreed on it without talking (the shards of one load) can each fetch the run's windows.
     */
    public ArmResult arm(StallPlan plan, String runIdOrNull) {
        Objects.requireNonNull(plan, "plan");
        if (plan.kind() == StallKind.FREEZE && !plan.stalls().isEmpty()) {
            Optional<String> why = freezer.unavailable();
            if (why.isPresent()) {
                throw new IllegalStateException("freeze is not available here: " + why.get());
            }
        }
        ArmResult result;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the stall controller is closed");
            }
            endOpenWindow();
            String runId = runIdOrNull == null ? newRunId() : runIdOrNull;
            long armedAtNanos = clock.nanoTime();
            Optional<SeededPlanSpec> seeded = plan.seededSpec();
            StallEvents.Run jfr = events.run(runId, runIdOrNull, seeded.isPresent(), seeded.isPresent() ? seeded.get().seed() : 0);
            run = new Run(runId, armedAtNanos, plan, jfr);
            lastRunId = runId;
            result = new ArmResult(runId, armedAtNanos, plan.stalls());
        }
        thread.interrupt();
        return result;
    }

    /**
     * Cancels the armed plan: no more windows open, and a window in progress ends now.
     *
     * @return the windows of the cancelled run so far, oldest first (empty if nothing was armed)
     */
    public List<StallRecord> disarm() {
        String runId;
        synchronized (lock) {
            endOpenWindow();
            runId = run == null ? null : run.id;
            run = null;
        }
        thread.interrupt();
        return runId == null ? List.of() : allOf(runId);
    }

    /**
     * True while a plan is armed: from {@link #arm} until its horizon (or until its last window has
     * closed, if that comes later), a {@link #disarm} or a new arm.
     */
    public boolean armed() {
        synchronized (lock) {
            return run != null && (openEntry != null || run.next < run.plan.stalls().size()
                    || clock.nanoTime() - run.expiresAtNanos() < 0);
        }
    }

    /** The id of the most recently armed run, or null if nothing was ever armed. */
    public String lastRunId() {
        synchronized (lock) {
            return lastRunId;
        }
    }

    /**
     * The recorded windows that have ended, oldest first, at most {@link #PAGE_SIZE} of them.
     *
     * @param runIdOrNull only this run's windows, or every run's when null
     * @param sinceIndex  only windows whose plan index is at least this (page through one run with
     *                    {@link StallPage#nextIndex()})
     */
    public StallPage stalls(String runIdOrNull, long sinceIndex) {
        List<Entry> matching = new ArrayList<>();
        boolean more = false;
        long droppedNow;
        synchronized (records) {
            droppedNow = dropped;
            for (Entry entry : records) {
                if ((runIdOrNull == null || runIdOrNull.equals(entry.runId)) && entry.index >= sinceIndex) {
                    if (matching.size() == PAGE_SIZE) {
                        more = true;
                        break;
                    }
                    matching.add(entry);
                }
            }
        }
        List<StallRecord> page = new ArrayList<>(matching.size());
        for (Entry entry : matching) {
            page.add(entry.toRecord());
        }
        long nextIndex = page.isEmpty() ? sinceIndex : page.get(page.size() - 1).index() + 1;
        return new StallPage(page, nextIndex, more, droppedNow);
    }

    /** True while a stall window is open and has not reached its end: requests arriving now are held. */
    public boolean stalling() {
        synchronized (lock) {
            return openEntry != null && clock.nanoTime() - openEntry.window.endNanos() < 0;
        }
    }

    /** Totals over every window that has ended since this controller was made. */
    public StallTotals totals() {
        synchronized (records) {
            long held = droppedHeld;
            for (Entry entry : records) {
                held += entry.held();
            }
            return new StallTotals(stallsTotal, stalledNanosTotal, held, dropped);
        }
    }

    /** Disarms (a window in progress ends now) and stops the controller's thread. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            endOpenWindow();
            run = null;
            closed = true;
        }
        thread.interrupt();
    }

    private List<StallRecord> allOf(String runId) {
        List<StallRecord> all = new ArrayList<>();
        long since = 0;
        while (true) {
            StallPage page = stalls(runId, since);
            all.addAll(page.stalls());
            if (!page.more()) {
                return all;
            }
            since = page.nextIndex();
        }
    }

    private static String newRunId() {
        long random = ThreadLocalRandom.current().nextLong() >>> 16;
        return String.format("%012x-%d", random, RUN_SEQUENCE.incrementAndGet());
    }

    // ---- the controller's thread ------------------------------------------------------------------

    private enum Step { OPEN, CLOSE, EXPIRE }

    private void loop() {
        StallGate.exemptCurrentThread();
        while (true) {
            Thread.interrupted(); // a state change is re-read below
            Run current;
            Entry entry;
            Step step;
            long deadlineNanos;
            synchronized (lock) {
                if (closed) {
                    return;
                }
                current = run;
                entry = openEntry;
                if (current == null) {
                    step = null;
                    deadlineNanos = 0;
                } else if (entry != null) {
                    step = Step.CLOSE;
                    deadlineNanos = entry.window.endNanos();
                } else if (current.next < current.plan.stalls().size()) {
                    step = Step.OPEN;
                    deadlineNanos = current.armedAtNanos + current.plan.stalls().get(current.next).offsetNanos();
                } else {
                    step = Step.EXPIRE;
                    deadlineNanos = current.expiresAtNanos();
                }
            }
            if (step == null) {
                LockSupport.park(this);
                continue;
            }
            boolean burn = step == Step.CLOSE && burnCoreDuringSpin && entry.kind == StallKind.SPIN;
            boolean freeze = step == Step.OPEN && current.plan.kind() == StallKind.FREEZE;
            long wakeNanos = freeze ? deadlineNanos - FREEZE_LEAD_NANOS : deadlineNanos;
            if (!PreciseWait.until(clock, wakeNanos, burn ? Long.MAX_VALUE : freeze ? 0 : PreciseWait.DEFAULT_SPIN_NANOS)) {
                continue;
            }
            synchronized (lock) {
                if (closed || run != current || openEntry != entry) {
                    continue; // armed, disarmed or closed meanwhile
                }
                switch (step) {
                    case OPEN -> {
                        if (current.plan.kind() == StallKind.FREEZE) {
                            freezeNext(current, deadlineNanos);
                        } else {
                            openNext(current, deadlineNanos);
                        }
                    }
                    case CLOSE -> endOpenWindow();
                    case EXPIRE -> run = null;
                    default -> throw new AssertionError(step);
                }
            }
        }
    }

    // guarded by lock
    private void openNext(Run current, long plannedStartNanos) {
        PlannedStall planned = current.plan.stalls().get(current.next);
        current.next++;
        StallKind kind = current.plan.kind();
        // JFR's start before the clock's, its end (at the close) after: the event spans at least the window
        StallEvents.Window jfr = current.jfr.opening(planned.index(), kind, plannedStartNanos, planned.durationNanos());
        long startNanos = clock.nanoTime();
        GateWindow window = gate.open(clock, startNanos + planned.durationNanos(), kind, jfr.holds());
        openEntry = new Entry(planned.index(), plannedStartNanos, startNanos, window, kind, current.id, jfr);
    }

    // guarded by lock: the whole process stops, this thread with it, so nobody waits for the lock meanwhile,
    // and no arm or disarm can come between the stop and its record
    private void freezeNext(Run current, long plannedStartNanos) {
        PlannedStall planned = current.plan.stalls().get(current.next);
        current.next++;
        long nowNanos = clock.nanoTime();
        long startNanos = plannedStartNanos - nowNanos > 0 ? plannedStartNanos : nowNanos; // late: from now, as long
        StallEvents.Window jfr = current.jfr.opening(planned.index(), StallKind.FREEZE, plannedStartNanos, planned.durationNanos());
        Freezer.FreezeEdges edges;
        try {
            edges = freezer.freeze(startNanos, startNanos + planned.durationNanos());
        } catch (RuntimeException e) {
            freezeFailure = planned.index() + ": " + e.getMessage();
            run = null; // the rest of the plan would fail alike
            return;
        }
        Entry entry = new Entry(planned.index(), plannedStartNanos, edges.startNanos(), null, StallKind.FREEZE, current.id, jfr);
        entry.endNanos = edges.endNanos();
        entry.startUncertaintyNanos = edges.startUncertaintyNanos();
        entry.endUncertaintyNanos = edges.endUncertaintyNanos();
        jfr.closed(entry.startNanos, entry.endNanos, 0);
        record(entry);
    }

    /** Why the last freeze that failed did ("3: timer_settime failed: errno 22"), or null if none failed. */
    public String lastFreezeFailure() {
        synchronized (lock) {
            return freezeFailure;
        }
    }

    // guarded by lock
    private void endOpenWindow() {
        Entry entry = openEntry;
        if (entry == null) {
            return;
        }
        openEntry = null;
        entry.window.close();
        // A window stops holding at its end by itself (held threads and arrivals read the clock), so a
        // close that comes late does not make it longer; one that comes early (disarm, arm) cuts it short.
        long nowNanos = clock.nanoTime();
        entry.endNanos = nowNanos - entry.window.endNanos() < 0 ? nowNanos : entry.window.endNanos();
        entry.jfr.closed(entry.startNanos, entry.endNanos, entry.held());
        record(entry);
    }

    private void record(Entry entry) {
        synchronized (records) {
            records.addLast(entry);
            stallsTotal++;
            stalledNanosTotal += entry.endNanos - entry.startNanos;
            if (records.size() > MAX_RECORDS) {
                Entry oldest = records.removeFirst();
                dropped++;
                droppedHeld += oldest.held();
            }
        }
    }

    private static final class Run {
        final String id;
        final long armedAtNanos;
        final StallPlan plan;
        final StallEvents.Run jfr;
        int next; // guarded by lock

        Run(String id, long armedAtNanos, StallPlan plan, StallEvents.Run jfr) {
            this.id = id;
            this.armedAtNanos = armedAtNanos;
            this.plan = plan;
            this.jfr = jfr;
        }

        long expiresAtNanos() {
            return armedAtNanos + plan.horizonNanos();
        }
    }

    private static final class Entry {
        final long index;
        final long plannedStartNanos;
        final long startNanos;
        final GateWindow window; // null for a freeze
        final StallKind kind;
        final String runId;
        final StallEvents.Window jfr;
        long endNanos; // set once, under lock, before the entry is published to records
        long startUncertaintyNanos; // a freeze's, likewise
        long endUncertaintyNanos;

        Entry(long index, long plannedStartNanos, long startNanos, GateWindow window, StallKind kind, String runId,
              StallEvents.Window jfr) {
            this.index = index;
            this.plannedStartNanos = plannedStartNanos;
            this.startNanos = startNanos;
            this.window = window;
            this.kind = kind;
            this.runId = runId;
            this.jfr = jfr;
        }

        long held() {
            return window == null ? 0 : window.held();
        }

        StallRecord toRecord() {
            return new StallRecord(index, plannedStartNanos, startNanos, endNanos, held(), kind, runId,
                    startUncertaintyNanos, endUncertaintyNanos);
        }
    }
}
