package io.loadsmith.tester.cli;

import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;

/**
 * Ctrl-C (SIGINT, or SIGTERM) for {@code run}, {@code demo} and {@code experiment}: a JVM shutdown hook
 * that prints {@code message}, calls {@code stop} (which stops sending) and waits for the command's files,
 * at most {@code waitMillis}, so the JVM does not exit half-way; the exit status is then the signal's (130
 * for SIGINT). A child service ({@link ServiceProcess}) is stopped only after that wait. A second Ctrl-C
 * exits at once (status 130), stopping the child processes; the files are written atomically, so none is
 * left half-written. {@link #close()} after the files are written (always: try-with-resources).
 */
final class StopHook implements AutoCloseable {

    /** How long {@code demo} and {@code experiment} wait for their files: the grace, the stalls, the report. */
    static final long SESSION_WAIT_MILLIS = 60_000;

    private static final int SIGINT_STATUS = 130;

    private final CountDownLatch written = new CountDownLatch(1);
    private final Thread hook;

    private StopHook(Runnable stop, long waitMillis, PrintWriter err, String message) {
        hook = new Thread(() -> {
            exitAtOnceOnSecondInterrupt();
            err.printf("%n%s%n", message);
            err.flush();
            stop.run();
            try {
                written.await(waitMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loadsmith-stop");
    }

    /** Installs the hook; a child service started from now on is kept until the files are written. */
    static StopHook install(Runnable stop, long waitMillis, PrintWriter err, String message) {
        StopHook stopHook = new StopHook(stop, waitMillis, err, message);
        ServiceProcess.holdOnShutdownUntil(stopHook.written, waitMillis);
        Runtime.getRuntime().addShutdownHook(stopHook.hook);
        return stopHook;
    }

    private static void exitAtOnceOnSecondInterrupt() {
        try {
            Signal.handle(new Signal("INT"), signal -> {
                ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                Runtime.getRuntime().halt(SIGINT_STATUS);
            });
        } catch (IllegalArgumentException unsupported) {
            // no SIGINT on this platform: a second Ctrl-C waits like the first
        }
    }

    /** The command's files are written: a running hook returns, and an unused one is removed. */
    @Override
    public void close() {
        written.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it returns now that the files are written
        }
    }
}
