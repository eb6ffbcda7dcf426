package io.loadsmith.tester.report;

/**
 * A results file that cannot be turned into a report: missing, not JSON, or a field of the wrong
 * shape. The message names the file and, where known, the line and the field, e.g.
 * {@code results/x/results.json: runs[1].latency_ms.service.p99 must be a number (got "fast")}.
 * The CLI maps it to exit code 2.
 */
public final class ReportException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ReportException(String message) {
        super(message);
    }

    public ReportException(String message, Throwable cause) {
        super(message, cause);
    }
}
