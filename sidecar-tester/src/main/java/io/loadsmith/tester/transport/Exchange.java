package io.loadsmith.tester.transport;

/**
 * The engine's side of one request in flight. A {@link Transport} calls {@link #sent(long)} once when the
 * request is committed to the socket (never, if it could not be sent) and then {@link #completed} exactly
 * once. Both may be called from any thread; all times are on the tester's clock
 * ({@code System.nanoTime()} for a real transport, the virtual scheduler's time for the simulator).
 */
public interface Exchange {

    /** The request was committed to the socket at {@code actualSendNanos}. */
    void sent(long actualSendNanos);

    /**
     * The exchange ended at {@code endNanos} (last byte of the response, or the moment of failure).
     *
     * @param status HTTP status, or 0 when no response arrived
     * @param detail null when OK, else what went wrong (for logs and the first error of each kind)
     */
    void completed(long endNanos, int status, Outcome outcome, String detail);

    /**
     * The answer named the replica that served it ({@code Loadsmith-Replica}): called before
     * {@link #completed}, on the same thread, with a number of {@link ServedBy} ({@link ServedBy#NONE} when
     * the answer had no such header). The default ignores it.
     */
    default void servedBy(int replica) {
    }
}
