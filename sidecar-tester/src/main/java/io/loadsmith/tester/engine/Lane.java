package io.loadsmith.tester.engine;

import io.loadsmith.tester.transport.Transport;

/**
 * One lane of a run: a scheduler and the transport whose requests it sends, with a share of the load (see
 * {@link LoadTest#run(TesterSpec, java.util.List, RequestSource, java.nio.file.Path, LoadTest.Options)}).
 * A run of one lane is the usual run; the default transport gives one lane per event loop.
 */
public record Lane(Scheduler scheduler, Transport transport) {
}
