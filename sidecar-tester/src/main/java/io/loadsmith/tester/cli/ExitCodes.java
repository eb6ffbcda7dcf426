package io.loadsmith.tester.cli;

/** The exit codes of every loadsmith command (docs/cli.md, "Exit codes"). */
public final class ExitCodes {

    /** Everything ran and every SLO passed. */
    public static final int OK = 0;
    /** The run finished but an SLO failed (gates a CI job). */
    public static final int SLO_FAILED = 1;
    /** Bad input: a scenario file, an option, a results folder; the message names file, line and field. */
    public static final int BAD_INPUT = 2;
    /** The target or the agent could not be reached. */
    public static final int UNREACHABLE = 3;
    /**
     * The JVM's heap ran out. After a run's results were written (results.json, requests.bin, latency.hlog
     * whole) the report was not: {@code loadsmith report DIR} with more memory finishes it. Anywhere else the
     * command did not finish.
     */
    public static final int OUT_OF_MEMORY = 4;

    private ExitCodes() {
    }
}
