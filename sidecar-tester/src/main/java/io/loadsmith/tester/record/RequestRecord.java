package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;

/**
 * One request of a run, as kept in the per-request log ({@link RequestLog}). All nanosecond values are on
 * the tester's own clock ({@code System.nanoTime()} in the tester JVM, or the virtual time of a simulation).
 *
 * @param intendedNanos when the schedule meant it to be sent (closed loop: the actual send, it has no schedule)
 * @param sentNanos     when it was committed to the socket, -1 if never sent
 * @param endNanos      when it ended, -1 if it never ended (dropped before it was sent)
 * @param connection    connection number, -1 for the open model
 * @param step          step id given by the request source (0 for a plain GET)
 * @param status        HTTP status, 0 when none
 * @param outcome       how it ended
 * @param servedBy      the replica that answered, as its {@code Loadsmith-Replica} header named it (a number
 *                      of {@link io.loadsmith.tester.transport.ServedBy}); 0 when the answer named none
 */
public record RequestRecord(long intendedNanos, long sentNanos /* -1 if never sent */, long endNanos /* -1 if never ended */,
                            int connection, int step, int status, Outcome outcome, int servedBy) {

    /** A request whose answer named no replica. */
    public RequestRecord(long intendedNanos, long sentNanos, long endNanos, int connection, int step, int status,
                         Outcome outcome) {
        this(intendedNanos, sentNanos, endNanos, connection, step, status, outcome, 0);
    }

    /** end − sent, in nanoseconds; -1 when it was not sent or did not end. */
    public long serviceNanos() {
        return sentNanos < 0 || endNanos < 0 ? -1 : endNanos - sentNanos;
    }

    /** end − intended, in nanoseconds; -1 when it did not end. */
    public long correctedNanos() {
        return endNanos < 0 ? -1 : endNanos - intendedNanos;
    }
}
