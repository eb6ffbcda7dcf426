package io.loadsmith.agent;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's log: the JDK's {@link System.Logger} named {@code io.loadsmith.agent} (no logging
 * framework is started), filtered by the {@code log=} option, with {@link #errorOnce} so that a
 * repeated failure is reported once. Thread-safe.
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
        log(AgentOptions.LogLevel.DEBUG, Level.DEBUG, message, null);
    }

    static void info(String message) {
        log(AgentOptions.LogLevel.INFO, Level.INFO, message, null);
    }

    static void warning(String message) {
        log(AgentOptions.LogLevel.WARNING, Level.WARNING, message, null);
    }

    static void error(String message, Throwable cause) {
        log(AgentOptions.LogLevel.ERROR, Level.ERROR, message, cause);
    }

    /** Logs an error the first time {@code key} is seen, and never again. */
    static void errorOnce(String key, String message, Throwable cause) {
        if (REPORTED.add(key)) {
            error(message, cause);
        }
    }

    private static void log(AgentOptions.LogLevel ours, Level jdk, String message, Throwable cause) {
        if (threshold.compareTo(ours) < 0) {
            return;
        }
        try {
            // DEBUG goes out at INFO so that log=debug shows without configuring java.util.logging
            Level level = jdk == Level.DEBUG ? Level.INFO : jdk;
            if (cause == null) {
                Jdk.LOGGER.log(level, "loadsmith agent: " + message);
            } else {
                Jdk.LOGGER.log(level, "loadsmith agent: " + message, cause);
            }
        } catch (Throwable ignored) {
            // the log must never fail the host
        }
    }

    /** The JDK logger, looked up at the first line logged: an agent that logs nothing starts no logging. */
    private static final class Jdk {
        static final System.Logger LOGGER = System.getLogger("io.loadsmith.agent");
    }
}
