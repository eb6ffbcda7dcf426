package io.loadsmith.tester.transport;

/** A check of one response, run by the transport when the response has ended. */
@FunctionalInterface
public interface ResponseCheck {

    /** null when the response passes, else what failed. */
    String check(int status, byte[] body);
}
