package io.loadsmith.stall.plan;

import java.util.Locale;

/** How threads wait during a stall window. */
public enum StallKind {
    /** Threads that reach the gate park until the window ends; the core stays free. */
    BLOCK,
    /** Threads that reach the gate busy-wait until the window ends, burning CPU. */
    SPIN;

    /** The name used in JSON and YAML: {@code block} or {@code spin}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a wire name.
     *
     * @throws PlanException naming {@code kind} if the text is neither {@code block} nor {@code spin}
     */
    public static StallKind fromWireName(String text) {
        for (StallKind kind : values()) {
            if (kind.wireName().equals(text)) {
                return kind;
            }
        }
        throw new PlanException("kind", "must be block or spin (got " + text + ")");
    }
}
