package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The safepoints of this JVM from an in-process JFR {@link RecordingStream}: {@code jdk.SafepointBegin},
 * {@code jdk.SafepointEnd}, {@code jdk.ExecuteVMOperation}, {@code jdk.GCPhasePause} and
 * {@code jdk.GarbageCollection} at threshold 0, paired by safepoint id, plus this package's
 * {@link SyncEvent}s, which map JFR ticks to the clock ({@link TickMapper}). A safepoint becomes a window
 * when its end has been delivered, at the next flush. Every handler runs on JFR's stream thread and never
 * throws.
 */
final class SafepointStream implements AutoCloseable {

    /** Tells the observer what JFR delivered; called on the stream thread. */
    interface Sink {
        void safepoint(PauseWindow window);

        /**
         * After a flush: every event committed before {@code upToNanos} has been delivered, and the oldest
         * safepoint begun but not yet ended began at {@code openSinceNanos} (or {@code noneOpen} is true).
         */
        void delivered(long upToNanos, long openSinceNanos, boolean noneOpen);

        void failed(String what, Throwable cause);

        /** The stream stopped for good ({@code cause} null: closed). */
        void stopped(Throwable cause);
    }

    /** The thread that reads the stream. */
    static final String THREAD_NAME = "loadsmith-pause-jfr";
    static final int START_WAIT_MILLIS = 5_000;
    private static final int SYNCS_PER_CALL = 3;
    /** A call {@code untilTight} commits up to this many events to get {@value #SYNCS_PER_CALL} tight ones. */
    private static final int MAX_COMMITS_PER_CALL = 32;
    private static final long ABANDONED_AFTER_NANOS = 30_000_000_000L;
    private static final int SYNC_SLOTS = 1024;
    private static final int MAX_PENDING = 1024;
    private static final int MAX_COLLECTIONS = 256;
    /** Distinct labels shared between windows: a JVM repeats a few dozen operations and causes. */
    private static final int MAX_LABELS = 256;

    private final Clock clock;
    private final Sink sink;
    private final RecordingStream stream;

    // written by the thread that calls sync(), read by the stream thread
    private final AtomicLongArray syncSequences = new AtomicLongArray(SYNC_SLOTS);
    private final AtomicLongArray syncAfterNanos = new AtomicLongArray(SYNC_SLOTS);
    /** Unique across the streams of this class: a stream also reads the sync events of another one. */
    private static final AtomicLong SEQUENCE = new AtomicLong();
    /**
     * This stream's, on each of its sync events: another copy of this class (an agent's, relocated, beside the
     * service's own stall-service) counts {@link #SEQUENCE} from 1 too, and its sync events, under the same name,
     * reach this stream; their sequences would match slots of ours.
     */
    private final long streamId = ThreadLocalRandom.current().nextLong();

    // the stream thread's
    private final TickMapper mapper = new TickMapper();
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    private final List<Collection> collections = new ArrayList<>();
    private final Map<String, String> labels = new HashMap<>();
    private long syncedUpToNanos;
    private boolean synced;

    private SafepointStream(Clock clock, Sink sink) {
        this.clock = clock;
        this.sink = sink;
        this.stream = new RecordingStream();
    }

    /**
     * Starts the stream, after sizing JFR's buffers with {@code jfrMemory} if given (once per JVM).
     *
     * @throws Exception or an error if this JVM has no usable JFR (no {@code jdk.jfr} module, JFR disabled)
     */
    static SafepointStream start(Clock clock, Sink sink, JfrMemory jfrMemory) {
        if (jfrMemory != null) {
            jfrMemory.beforeFirstStart();
        }
        SafepointStream safepoints = new SafepointStream(clock, sink);
        try {
            safepoints.configure();
            safepoints.startOnDaemonThread();
            safepoints.commitSync(); // the first commit loads and sets up the writer: a wide, unused sample
            return safepoints;
        } catch (RuntimeException | Error e) {
            safepoints.stream.close();
            throw e;
        }
    }

    /**
     * Runs the stream on a daemon thread of ours ({@value #THREAD_NAME}: the one {@code startAsync} makes is
     * not a daemon on JDK 17 and would keep the host from exiting), and returns once the recording runs (its
     * settings enable {@link SyncEvent}), or after {@value #START_WAIT_MILLIS} ms, or when the calling thread
     * is interrupted.
     */
    private void startOnDaemonThread() {
        Thread thread = new Thread(() -> {
            Throwable cause = null;
            try {
                stream.start();
            } catch (RuntimeException | Error e) {
                cause = e;
            }
            sink.stopped(cause);
        }, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        long deadlineNanos = clock.nanoTime() + START_WAIT_MILLIS * 1_000_000L;
        // an interrupt (the observer closed meanwhile) ends the wait: a park would return at once until the deadline
        while (!new SyncEvent().isEnabled() && thread.isAlive() && clock.nanoTime() - deadlineNanos < 0
                && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void configure() {
        for (String name : List.of("jdk.SafepointBegin", "jdk.SafepointEnd", "jdk.ExecuteVMOperation",
                "jdk.GCPhasePause", "jdk.GarbageCollection")) {
            stream.enable(name).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        stream.enable(SyncEvent.class).withThreshold(Duration.ZERO).withoutStackTrace();
        stream.setMaxAge(Duration.ofSeconds(30));
        stream.setMaxSize(16L << 20);
        stream.onEvent("jdk.SafepointBegin", guarded("jdk.SafepointBegin", this::onBegin));
        stream.onEvent("jdk.SafepointEnd", guarded("jdk.SafepointEnd", this::onEnd));
        stream.onEvent("jdk.ExecuteVMOperation", guarded("jdk.ExecuteVMOperation", this::onOperation));
        stream.onEvent("jdk.GarbageCollection", guarded("jdk.GarbageCollection", this::onCollection));
        stream.onEvent("jdk.GCPhasePause", guarded("jdk.GCPhasePause", this::onPausePhase));
        stream.onEvent("loadsmith.ClockSync", guarded("loadsmith.ClockSync", this::onSync));
        stream.onFlush(() -> {
            try {
                onFlush();
            } catch (RuntimeException e) {
                sink.failed("JFR flush", e);
            }
        });
    }

    private Consumer<RecordedEvent> guarded(String name, Consumer<RecordedEvent> handler) {
        return event -> {
            try {
                handler.accept(event);
            } catch (RuntimeException e) {
                sink.failed(name, e);
            }
        };
    }

    /**
     * Commits {@value #SYNCS_PER_CALL} sync events, each between two clock readings (the mapper keeps the
     * tight ones, {@link TickMapper#ALWAYS_TIGHT_NANOS}); with {@code untilTight}, as many as it takes for
     * that many to be tight, at most {@value #MAX_COMMITS_PER_CALL}: for the first samples of a stream and
     * those a caller waits on ({@code requestSync}), which on a busy box could otherwise all be preempted,
     * dropped, and leave nothing finalised until the next interval. The periodic calls, which nobody waits
     * on, keep to {@value #SYNCS_PER_CALL} commits. Called by one thread (the sleeper's or the sync thread),
     * never concurrently.
     */
    void sync(boolean untilTight) {
        int tight = 0;
        for (int i = 0; i < (untilTight ? MAX_COMMITS_PER_CALL : SYNCS_PER_CALL) && tight < SYNCS_PER_CALL; i++) {
            if (commitSync() <= TickMapper.ALWAYS_TIGHT_NANOS) {
                tight++;
            }
        }
    }

    /** Commits one sync event; returns the width of the clock readings around it. */
    private long commitSync() {
        long seq = SEQUENCE.incrementAndGet();
        SyncEvent event = new SyncEvent();
        event.stream = streamId;
        event.sequence = seq;
        long beforeNanos = clock.nanoTime();
        event.beforeNanos = beforeNanos;
        event.commit();
        long afterNanos = clock.nanoTime();
        int slot = (int) (seq % SYNC_SLOTS);
        syncAfterNanos.set(slot, afterNanos);
        syncSequences.set(slot, seq);
        return afterNanos - beforeNanos;
    }

    @Override
    public void close() {
        stream.close();
    }

    // ---- the stream thread ------------------------------------------------------------------------

    private void onSync(RecordedEvent event) {
        if (event.getLong("stream") != streamId) {
            return; // another stream's, perhaps another copy's of this class
        }
        long seq = event.getLong("sequence");
        long beforeNanos = event.getLong("beforeNanos");
        int slot = (int) (seq % SYNC_SLOTS);
        if (syncSequences.get(slot) == seq) {
            mapper.add(event.getLong("startTime"), beforeNanos, syncAfterNanos.get(slot));
        }
        if (!synced || beforeNanos - syncedUpToNanos > 0) {
            syncedUpToNanos = beforeNanos;
            synced = true;
        }
    }

    private void onBegin(RecordedEvent event) {
        Pending p = pending(event.getLong("safepointId"));
        p.beginTicks = event.getLong("startTime");
        p.syncTicks = event.getLong("duration");
        p.begun = true;
    }

    private void onEnd(RecordedEvent event) {
        Pending p = pending(event.getLong("safepointId"));
        p.endTicks = event.getLong("startTime");
        p.ended = true;
    }

    private void onOperation(RecordedEvent event) {
        if (event.getBoolean("safepoint")) {
            pending(event.getLong("safepointId")).operations.add(event.getString("operation"));
        }
    }

    private void onCollection(RecordedEvent event) {
        addCollection(new Collection(event.getLong("startTime"), event.getString("name") + " (" + event.getString("cause") + ")", true));
    }

    private void onPausePhase(RecordedEvent event) {
        addCollection(new Collection(event.getLong("startTime"), event.getString("name"), false));
    }

    private void addCollection(Collection collection) {
        collections.add(collection);
        if (collections.size() > MAX_COLLECTIONS) {
            collections.remove(0);
        }
    }

    private Pending pending(long safepointId) {
        Pending p = pending.get(safepointId);
        if (p == null) {
            p = new Pending();
            pending.put(safepointId, p);
            if (pending.size() > MAX_PENDING) {
                Iterator<Pending> oldest = pending.values().iterator();
                oldest.next();
                oldest.remove();
            }
        }
        return p;
    }

    private void onFlush() {
        if (!mapper.ready() || !synced) {
            return;
        }
        boolean noneOpen = true;
        long openSinceTicks = 0;
        Iterator<Pending> each = pending.values().iterator();
        while (each.hasNext()) {
            Pending p = each.next();
            if (p.ended && mapper.covers(p.endTicks)) {
                each.remove();
                if (p.begun) {
                    sink.safepoint(window(p));
                }
            } else if (!p.begun || syncedUpToNanos - mapper.toNanos(p.beginTicks) > ABANDONED_AFTER_NANOS) {
                if (!p.begun && p.ended) {
                    each.remove(); // began before the recording
                } else if (p.begun) {
                    each.remove(); // its end was lost
                }
            } else if (noneOpen || p.beginTicks - openSinceTicks < 0) {
                noneOpen = false; // open, or ended but not yet between two samples: the sleeper waits for it
                openSinceTicks = p.beginTicks;
            }
        }
        if (noneOpen) {
            collections.clear();
        } else {
            long keepFrom = openSinceTicks;
            collections.removeIf(c -> c.startTicks - keepFrom < 0);
        }
        sink.delivered(syncedUpToNanos, noneOpen ? 0 : mapper.toNanos(openSinceTicks), noneOpen);
    }

    private PauseWindow window(Pending p) {
        long startNanos = mapper.toNanos(p.beginTicks);
        long endNanos = Math.max(startNanos, mapper.toNanos(p.endTicks));
        long syncedNanos = Math.min(endNanos, mapper.toNanos(p.beginTicks + p.syncTicks));
        String operation = shared(p.operations.isEmpty() ? null : String.join("+", p.operations));
        String gc = shared(collectionIn(p.beginTicks, p.endTicks));
        String label = shared((operation == null ? "safepoint" : operation) + (gc == null ? "" : " " + gc));
        return new PauseWindow(0, PauseSource.SAFEPOINT, label, startNanos, endNanos, operation, gc,
                Math.max(0, syncedNanos - startNanos));
    }

    /**
     * One copy of each label for the windows kept (up to {@link PauseObserver#MAX_RECORDS}), not one per window:
     * the first {@value #MAX_LABELS} distinct ones are shared, later new ones kept as they come.
     */
    private String shared(String text) {
        if (text == null) {
            return null;
        }
        String known = labels.get(text);
        if (known != null) {
            return known;
        }
        if (labels.size() < MAX_LABELS) {
            labels.put(text, text);
        }
        return text;
    }

    /** The collection in a safepoint: its jdk.GarbageCollection if delivered, else its pause phase. */
    private String collectionIn(long fromTicks, long toTicks) {
        String phase = null;
        for (Collection c : collections) {
            if (c.startTicks - fromTicks >= 0 && c.startTicks - toTicks <= 0) {
                if (c.whole) {
                    return c.label;
                }
                if (phase == null) {
                    phase = c.label;
                }
            }
        }
        return phase;
    }

    private static final class Pending {
        long beginTicks;
        long syncTicks;
        long endTicks;
        boolean begun;
        boolean ended;
        final List<String> operations = new ArrayList<>(1);
    }

    private record Collection(long startTicks, String label, boolean whole) {
    }
}
