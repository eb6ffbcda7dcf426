package io.loadsmith.tester.engine;

import io.loadsmith.tester.scheduler.TaskQueue;

/** A task of a {@link Phase}: skipped once the phase has finished; a failure ends the run with it. */
abstract class PhaseTask extends TaskQueue.Task {

    final Phase phase;

    PhaseTask(Phase phase) {
        this.phase = phase;
    }

    @Override
    public final void run() {
        if (phase.finished()) {
            return;
        }
        try {
            fire();
        } catch (RuntimeException | Error e) {
            phase.fail(e);
        }
    }

    abstract void fire();

    static PhaseTask of(Phase phase, Runnable task) {
        return new PhaseTask(phase) {
            @Override
            void fire() {
                task.run();
            }
        };
    }
}
