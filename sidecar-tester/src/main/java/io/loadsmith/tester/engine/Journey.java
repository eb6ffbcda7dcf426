package io.loadsmith.tester.engine;

import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;

/**
 * One journey of a phase, one object for all its steps: the request of its current step (the engine's
 * {@link Exchange}), the task that sends that request later or handles its answer, and a node of the
 * phase's list of pending or of in-flight journeys.
 *
 * <p>Reuse: the same object sends the journey's next step, and a journey that ended is reused for a later
 * one ({@link #reset}), once the transport is done with it: its answer has been handled and its send was
 * reported (a transport may report a send after the answer, never twice). Otherwise a {@link #copy()}
 * goes on.
 */
final class Journey extends PhaseTask implements Exchange {

    enum State { PENDING, IN_FLIGHT, DONE }

    long arrival;
    int connection;
    long iteration;
    int position;
    RequestSpec request;
    long intendedNanos;
    long releaseNanos;
    volatile long sentNanos = -1;
    /** The answer: set by {@link #completed} (any thread) before it is posted to the scheduler. */
    long endNanos;
    int status;
    Outcome outcome;
    /** The replica that answered ({@link Exchange#servedBy}), set with the answer. */
    int servedBy;
    State state = State.PENDING;
    Journey prev;
    Journey next;

    Journey(Phase phase, long arrival, int connection, long iteration) {
        super(phase);
        reset(arrival, connection, iteration);
    }

    /** Makes this a new journey, before its first step. */
    void reset(long arrival, int connection, long iteration) {
        this.arrival = arrival;
        this.connection = connection;
        this.iteration = iteration;
        this.position = 0;
    }

    /** The list head: a journey of no phase. */
    static Journey sentinel() {
        Journey head = new Journey(null, -1, -1, -1);
        head.prev = head;
        head.next = head;
        return head;
    }

    /** A new object for the same journey, at the same step. */
    Journey copy() {
        Journey copy = new Journey(phase, arrival, connection, iteration);
        copy.position = position;
        return copy;
    }

    /** Makes the journey's current step the request, intended at intendedNanos. */
    void step(RequestSpec request, long intendedNanos) {
        this.request = request;
        this.intendedNanos = intendedNanos;
        this.sentNanos = -1;
        this.servedBy = 0;
        this.state = State.PENDING;
    }

    @Override
    public void sent(long actualSendNanos) {
        sentNanos = actualSendNanos;
    }

    @Override
    public void servedBy(int replica) {
        this.servedBy = replica;
    }

    @Override
    public void completed(long endNanos, int status, Outcome outcome, String detail) {
        this.endNanos = endNanos;
        this.status = status;
        this.outcome = outcome;
        phase.scheduler().at(endNanos, this);
    }

    @Override
    void fire() {
        switch (state) {
            case PENDING -> phase.sendPending(this);
            case IN_FLIGHT -> phase.answered(this);
            case DONE -> { } // withdrawn by a user stop, or dropped by the backstop before its answer came
        }
    }

    void linkBefore(Journey head) {
        prev = head.prev;
        next = head;
        head.prev.next = this;
        head.prev = this;
    }

    void unlink() {
        if (prev != null) {
            prev.next = next;
            next.prev = prev;
            prev = null;
            next = null;
        }
    }
}
