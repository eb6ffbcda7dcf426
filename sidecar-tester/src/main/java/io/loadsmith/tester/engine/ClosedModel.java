package io.loadsmith.tester.engine;

/**
 * The closed model: each connection starts its next journey as soon as its previous one ends. With lanes, a
 * phase runs the connections k = lane mod lanes, and its n-th journey is arrival {@code n·lanes + lane}.
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
        for (int k = phase.lane(); k < connections; k += phase.lanes()) {
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
        Journey journey = phase.create(phase.journeyStarted() * phase.lanes() + phase.lane(), connection, 0, now);
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
