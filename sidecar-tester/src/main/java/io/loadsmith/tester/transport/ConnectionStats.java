package io.loadsmith.tester.transport;

/**
 * What a transport's connections cost: how many were opened and how long a connect took.
 *
 * @param opened         connections established (TCP connect, and the TLS handshake for https), reconnects included
 * @param reconnects     of those, connections opened again on a slot whose previous connection closed (the server
 *                       sent {@code Connection: close}, an error, a timeout or a cancel closed it)
 * @param failedConnects connects that failed (refused, timed out, TLS handshake failed)
 * @param connectP50Ms   median time from the connect call to a usable connection, ms (0 when none opened)
 * @param connectMaxMs   the longest such time, ms
 */
public record ConnectionStats(long opened, long reconnects, long failedConnects, double connectP50Ms,
                              double connectMaxMs) {
}
