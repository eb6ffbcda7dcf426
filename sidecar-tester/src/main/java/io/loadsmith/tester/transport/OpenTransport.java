package io.loadsmith.tester.transport;

import io.loadsmith.tester.scheduler.Scheduler;

import java.util.List;

/**
 * Transports and the schedulers they belong with, opened together by {@code client.Transports.open} and closed
 * together: the transports first (what is in flight is cancelled), then the schedulers' threads. One lane
 * (a scheduler and its transport) per event loop: pass {@link #lanes()} to {@code LoadRun.run}, or, with
 * one lane, {@link #scheduler()} and {@link #transport()}. Read {@link #stats()} (all lanes together) and
 * {@link #laneStats()} from any thread.
 */
public final class OpenTransport implements AutoCloseable {

    private final List<Lane> lanes;
    private final List<TransportStats> laneStats;
    private final TransportStats stats;
    private final List<AutoCloseable> schedulerClosers;

    /** One lane; {@code schedulerCloser} stops the scheduler's thread, after the transport is closed. */
    public OpenTransport(Scheduler scheduler, Transport transport, TransportStats stats, AutoCloseable schedulerCloser) {
        this(List.of(new Lane(scheduler, transport)), List.of(stats), stats, List.of(schedulerCloser));
    }

    /**
     * Lanes, each with its stats and the closer of its scheduler (same order); {@code stats} counts them all.
     */
    public OpenTransport(List<Lane> lanes, List<TransportStats> laneStats, TransportStats stats,
                         List<AutoCloseable> schedulerClosers) {
        if (lanes.isEmpty() || lanes.size() != laneStats.size() || lanes.size() != schedulerClosers.size()) {
            throw new IllegalArgumentException("one stats and one closer per lane, at least one lane");
        }
        this.lanes = List.copyOf(lanes);
        this.laneStats = List.copyOf(laneStats);
        this.stats = stats;
        this.schedulerClosers = List.copyOf(schedulerClosers);
    }

    /** The lanes, one per event loop (one for the jetty transport). */
    public List<Lane> lanes() {
        return lanes;
    }

    /** The first lane's scheduler (every lane's reads the same clock). */
    public Scheduler scheduler() {
        return lanes.get(0).scheduler();
    }

    /** The first lane's transport: the only one when there is one lane. */
    public Transport transport() {
        return lanes.get(0).transport();
    }

    /** All lanes together. */
    public TransportStats stats() {
        return stats;
    }

    /** Each lane's own counts, in lane order. */
    public List<TransportStats> laneStats() {
        return laneStats;
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        for (Lane lane : lanes) {
            try {
                lane.transport().close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        for (AutoCloseable closer : schedulerClosers) {
            try {
                closer.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
