package io.loadsmith.tester.verify;

import java.util.List;

/**
 * What {@link Verifier} found in a results folder: one row per figure recomputed, in file order, and notes on
 * what it could not check (and why).
 */
public record Verification(List<Row> rows, List<String> notes) {

    public Verification {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    /** True when every figure recomputed agrees with its claim. */
    public boolean agrees() {
        return rows.stream().allMatch(Row::agrees);
    }

    /** The rows that disagree. */
    public List<Row> disagreements() {
        return rows.stream().filter(r -> !r.agrees()).toList();
    }
}
