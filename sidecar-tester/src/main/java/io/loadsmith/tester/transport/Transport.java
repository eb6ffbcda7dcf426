package io.loadsmith.tester.transport;

/**
 * Sends requests for the engine. The real one is HTTP ({@code tester.client.jetty}); the simulated one is
 * {@code io.loadsmith.tester.simulate.SimulatedServer}.
 *
 * <p>{@link #send} is called on the scheduler's thread and must not block: it starts the exchange and
 * returns; the transport reports the actual send and the end through the {@link Exchange}.
 */
public interface Transport extends AutoCloseable {

    /** Sends one request without blocking; calls exchange.sent once (if it was sent) and exchange.completed exactly once. */
    void send(RequestSpec request, Exchange exchange);

    /** Cancels whatever is still in flight; each cancelled exchange completes with Outcome.CANCELLED. */
    void cancelAll();

    /** Releases the transport's resources; the default does nothing. */
    @Override
    default void close() throws Exception {
    }
}
