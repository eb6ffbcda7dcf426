package io.loadsmith.tester.transport;

/** A check of one response, run by the transport when the response has ended. */
@FunctionalInterface
public interface ResponseCheck {

    /** null when the response passes, else what failed. */
    String check(int status, byte[] body);

    /**
     * What failed in a whole response, null when it passed: without a check, a status of 400 or more; with
     * one, what the check says (a check that throws fails). {@code body} is read only when there is a check.
     */
    static String verdict(ResponseCheck check, int status, byte[] body) {
        if (check == null) {
            return status < 400 ? null : "status " + status;
        }
        try {
            return check.check(status, body);
        } catch (RuntimeException e) {
            return "the check threw " + e;
        }
    }
}
