package io.loadsmith.tester.transport;

import io.loadsmith.tester.scheduler.Scheduler;

/**
 * One lane of a run: a scheduler and the transport whose requests it sends, with a share of the load (see
 * the engine's {@code LoadRun.run}, which takes a list of them).
 * A run of one lane is the usual run; the default transport gives one lane per event loop.
 */
public record Lane(Scheduler scheduler, Transport transport) {
}
