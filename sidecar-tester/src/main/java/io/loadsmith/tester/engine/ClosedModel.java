package io.loadsmith.tester.engine;

/**
 * The closed model: each connection starts its next journey as soon as its previous one ends. With lanes (and
 * shards), a phase runs the connections {@link Phase#firstConnection()} of them, and its n-th journey is
 * arrival {@code (n·lanes + lane)·shards + shard}.
 */
final class ClosedModel implements LoadModel {

    private final Phase phase;
    private final int connections;
    private int connectionsRunning;

    ClosedModel(Phase phase, int connections) {
        this.phase = phase;
        this.connections = connections;
    }

    @Override
    public void start() {
        for (int k = phase.firstConnection(); k < connections; k += phase.connectionStride()) {
            connectionsRunning++;
            int connection = k;
            phase.post(() -> startJourney(connection), phase.startNanos());
        }
    }

    private void startJourney(int connection) {
        long now = phase.scheduler().nanoTime();
        boolean atLimit = phase.atJourneyLimit();
        if (atLimit || phase.stopping() || now >= phase.endNanos()) {
            connectionsRunning--;
            phase.afterEvent();
            return;
        }
        Journey journey = phase.create(phase.closedArrival(phase.journeyStarted()), connection, 0, now);
        if (journey == null) {
            connectionsRunning--;
        } else {
            phase.dispatch(journey);
        }
        phase.afterEvent();
    }

    @Override
    public void journeyDone(Journey journey) {
        startJourney(journey.connection);
    }

    @Override
    public boolean idle() {
        return connectionsRunning <= 0;
    }
}
