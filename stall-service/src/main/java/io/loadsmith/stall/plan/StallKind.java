package io.loadsmith.stall.plan;

import java.util.Locale;

/** How a stall window holds the service. */
public enum StallKind {
    /** Threads that reach the gate park until the window ends; the core stays free. */
    BLOCK,
    /** Threads that reach the gate busy-wait until the window ends, burning CPU. */
    SPIN,
    /**
     * The whole process stops for the window (every thread, as {@code SIGSTOP} does), like a long GC pause or
     * a host that stops the VM; the gate holds nobody. Needs a {@code Freezer} that works on this host.
     */
    FREEZE;

    /** The name used in JSON and YAML: {@code block}, {@code spin} or {@code freeze}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a wire name.
     *
     * @throws PlanException naming {@code kind} if the text is not {@code block}, {@code spin} or {@code freeze}
     */
    public static StallKind fromWireName(String text) {
        for (StallKind kind : values()) {
            if (kind.wireName().equals(text)) {
                return kind;
            }
        }
        throw new PlanException("kind", "must be block, spin or freeze (got " + text + ")");
    }
}
