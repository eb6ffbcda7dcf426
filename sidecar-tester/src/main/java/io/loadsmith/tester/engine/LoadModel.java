package io.loadsmith.tester.engine;

import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.scheduler.Scheduler;

/**
 * What differs between the load models: when journeys start, and what the end of one starts. The
 * {@link Phase} does the rest (requests, answers, waits, the stop). Scheduler thread only.
 */
interface LoadModel {

    /** Schedules the phase's first journeys. */
    void start();

    /** A journey ended (answered, failed, dropped or withdrawn). */
    void journeyDone(Journey journey);

    /** True when no journey will start or wait any more. */
    boolean idle();

    /** The user stopped at phase.endNanos(): nothing intended from there on starts. */
    default void userStop() {
    }

    /** The phase stops: what waits for a slot is dropped. */
    default void stop() {
    }

    static LoadModel of(Phase phase, TesterSpec spec, ArrivalSchedule schedule) {
        return switch (spec.model()) {
            case OPEN -> new OpenModel(phase, schedule, spec.maxConcurrency());
            case CLOSED -> new ClosedModel(phase, spec.connections());
            case PACED -> new PacedModel(phase, spec);
        };
    }
}
