package io.loadsmith.stall.observe;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The observer's warnings ({@code System.Logger} {@code io.loadsmith.stall.observe}), each kind once per JVM. */
final class ObserverLog {

    private static final System.Logger LOG = System.getLogger("io.loadsmith.stall.observe");
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private ObserverLog() {
    }

    /** Logs {@code message} unless a warning of the same {@code key} was logged; never throws. */
    static void once(String key, String message, Throwable cause) {
        if (!REPORTED.add(key)) {
            return;
        }
        try {
            if (cause == null) {
                LOG.log(System.Logger.Level.WARNING, message);
            } else {
                LOG.log(System.Logger.Level.WARNING, message, cause);
            }
        } catch (Throwable ignored) {
            // the log must never fail the host
        }
    }
}
