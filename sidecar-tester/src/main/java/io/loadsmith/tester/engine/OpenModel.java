package io.loadsmith.tester.engine;

import io.loadsmith.tester.schedule.ArrivalSchedule;

import java.util.ArrayDeque;

/**
 * The open model: a journey starts at every arrival of the schedule, whatever is in flight; past
 * {@code maxConcurrency} journeys (0: no limit) an arrival waits for a slot, the wait charged to it.
 */
final class OpenModel implements LoadModel {

    private final Phase phase;
    private final ArrivalSchedule schedule;
    private final int maxConcurrency;
    private final ArrayDeque<Journey> waiting = new ArrayDeque<>();
    private final Arrival arrival;
    private int activeJourneys;
    private boolean arrivalsDone;

    OpenModel(Phase phase, ArrivalSchedule schedule, int maxConcurrency) {
        this.phase = phase;
        this.schedule = schedule;
        this.maxConcurrency = maxConcurrency;
        this.arrival = new Arrival(phase);
    }

    @Override
    public void start() {
        nextArrival();
    }

    /** Schedules the next arrival of the schedule, if any before the phase's end. */
    private void nextArrival() {
        if (phase.atJourneyLimit()) {
            arrivalsDone = true;
            return;
        }
        long offset = schedule.nextOffsetNanos();
        if (offset < 0 || phase.startNanos() + offset >= phase.endNanos()) {
            arrivalsDone = true;
            return;
        }
        phase.journeyStarted();
        arrival.index = schedule.index();
        arrival.intendedNanos = phase.startNanos() + offset;
        arrival.pending = true;
        phase.scheduler().at(arrival.intendedNanos, arrival);
    }

    private void arrive(long index, long intendedNanos) {
        nextArrival();
        if (phase.stopping()) {
            return;
        }
        Journey journey = phase.create(index, -1, 0, intendedNanos);
        if (journey != null) {
            if (maxConcurrency > 0 && activeJourneys >= maxConcurrency) {
                waiting.add(journey);
            } else {
                activeJourneys++;
                phase.dispatch(journey);
                phase.timerFired(intendedNanos);
            }
        }
        phase.afterEvent();
    }

    @Override
    public void journeyDone(Journey journey) {
        activeJourneys--;
        Journey next = waiting.poll();
        if (next != null) {
            activeJourneys++;
            long wait = phase.scheduler().nanoTime() - next.intendedNanos;
            if (wait > 0) {
                phase.waited(wait);
            }
            phase.dispatch(next);
        }
    }

    @Override
    public boolean idle() {
        return arrivalsDone && !arrival.pending && waiting.isEmpty();
    }

    @Override
    public void userStop() {
        dropWaiting();
        if (arrival.pending && arrival.intendedNanos >= phase.endNanos()) {
            arrival.pending = false;
            arrivalsDone = true;
        }
    }

    @Override
    public void stop() {
        dropWaiting();
    }

    private void dropWaiting() {
        Journey never;
        while ((never = waiting.poll()) != null) {
            phase.dropUnsent(never);
        }
    }

    /** The next arrival's timer: one object, queued again for each arrival; withdrawn by a user stop. */
    private final class Arrival extends PhaseTask {
        long index;
        long intendedNanos;
        boolean pending;

        Arrival(Phase phase) {
            super(phase);
        }

        @Override
        void fire() {
            if (pending) {
                pending = false;
                arrive(index, intendedNanos);
            }
        }
    }
}
