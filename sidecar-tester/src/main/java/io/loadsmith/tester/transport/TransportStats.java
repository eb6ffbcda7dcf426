package io.loadsmith.tester.transport;

/**
 * Live counts a transport keeps anyway, readable from any thread (e.g. once a second by a progress line):
 * reading them costs the transport nothing per request.
 */
public interface TransportStats {

    /** Requests handed to a socket so far. */
    long sent();

    /** Requests given to the transport and not yet completed (those waiting for a connection included). */
    long inFlight();

    /** Connections opened, reopened and failed, and connect times so far; null when the transport does not count them. */
    ConnectionStats connections();
}
