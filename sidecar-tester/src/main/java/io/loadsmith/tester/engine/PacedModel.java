package io.loadsmith.tester.engine;

/**
 * The paced model: connection k starts iteration n at {@code start + k·pace/connections + n·pace}, or as
 * soon as its previous journey ends if that is later (catch-up, the wait charged to it), or, with
 * {@code on_late: skip}, at the first of its moments not yet passed (the ones passed count as skipped).
 * With lanes (and shards), a phase runs the connections {@link Phase#firstConnection()} says.
 */
final class PacedModel implements LoadModel {

    private final Phase phase;
    private final int connections;
    private final long paceNanos;
    private final boolean skipLate;
    private int connectionsRunning;

    PacedModel(Phase phase, TesterSpec spec) {
        this.phase = phase;
        this.connections = spec.connections();
        this.paceNanos = spec.paceNanos();
        this.skipLate = spec.onLate() == TesterSpec.OnLate.SKIP;
    }

    @Override
    public void start() {
        for (int k = phase.firstConnection(); k < connections; k += phase.connectionStride()) {
            connectionsRunning++;
            startIteration(k, 0, false);
        }
    }

    @Override
    public void journeyDone(Journey journey) {
        startIteration(journey.connection, journey.iteration + 1, true);
    }

    @Override
    public boolean idle() {
        return connectionsRunning <= 0;
    }

    private long intended(int connection, long iteration) {
        return phase.startNanos() + connection * paceNanos / connections + iteration * paceNanos;
    }

    /** Starts iteration n of connection k: at its intended time, or now if that has passed (catch-up). */
    private void startIteration(int connection, long iteration, boolean fromAnswer) {
        long now = phase.scheduler().nanoTime();
        long intended = intended(connection, iteration);
        if (fromAnswer && skipLate && intended < now) {
            long behind = (now - intended + paceNanos - 1) / paceNanos;
            long firstOnTime = iteration + behind;
            phase.skipped(intended(connection, firstOnTime) >= phase.endNanos()
                    ? countBefore(connection, iteration, phase.endNanos()) : behind);
            iteration = firstOnTime;
            intended = intended(connection, iteration);
        }
        boolean atLimit = phase.atJourneyLimit();
        if (atLimit || phase.stopping() || intended >= phase.endNanos()) {
            connectionsRunning--;
            return;
        }
        phase.journeyStarted();
        Journey journey = phase.create(iteration * connections + connection, connection, iteration, intended);
        if (journey == null) {
            connectionsRunning--;
            return;
        }
        if (intended < now) {
            phase.waited(now - intended);
        }
        phase.sendAtIntended(journey);
    }

    /** Iterations of connection k from iteration n whose intended time is before limit. */
    private long countBefore(int connection, long iteration, long limitNanos) {
        long first = intended(connection, iteration);
        return first >= limitNanos ? 0 : (limitNanos - first + paceNanos - 1) / paceNanos;
    }
}
