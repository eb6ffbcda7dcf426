package io.loadsmith.agent;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's log: one line each on the process's standard error ({@code TIME LEVEL loadsmith agent: ...}),
 * filtered by the {@code log=} option, with {@link #errorOnce} so that a repeated failure is reported once.
 * Never through the app's logging: an app that takes over {@code java.util.logging} as it starts (Spring Boot
 * bridges it into Logback and drops what is logged before Logback is configured) would lose the lines the
 * agent logs meanwhile, its "admin API on" among them. Thread-safe.
 */
final class AgentLog {

    private static volatile AgentOptions.LogLevel threshold = AgentOptions.LogLevel.INFO;
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private AgentLog() {
    }

    static void threshold(AgentOptions.LogLevel level) {
        threshold = level;
    }

    static boolean debugEnabled() {
        return threshold.compareTo(AgentOptions.LogLevel.DEBUG) >= 0;
    }

    static void debug(String message) {
        log(AgentOptions.LogLevel.DEBUG, message, null);
    }

    static void info(String message) {
        log(AgentOptions.LogLevel.INFO, message, null);
    }

    static void warning(String message) {
        log(AgentOptions.LogLevel.WARNING, message, null);
    }

    static void error(String message, Throwable cause) {
        log(AgentOptions.LogLevel.ERROR, message, cause);
    }

    /** Logs an error the first time {@code key} is seen, and never again. */
    static void errorOnce(String key, String message, Throwable cause) {
        if (REPORTED.add(key)) {
            error(message, cause);
        }
    }

    private static void log(AgentOptions.LogLevel level, String message, Throwable cause) {
        if (threshold.compareTo(level) < 0) {
            return;
        }
        try {
            PrintStream err = System.err;
            String line = Instant.now() + " " + level + " loadsmith agent: " + message;
            synchronized (err) {
                err.println(line);
                if (cause != null) {
                    cause.printStackTrace(err);
                }
            }
        } catch (Throwable ignored) {
            // the log must never fail the host
        }
    }
}
