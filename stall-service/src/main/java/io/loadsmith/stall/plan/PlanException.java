package io.loadsmith.stall.plan;

/**
 * A stall plan was asked for with a value that makes no sense. {@link #field()} names the offending
 * field as it is spelled in the admin protocol without its unit suffix ({@code duration},
 * {@code min_gap}, {@code stalls[2].offset}); the message says what was expected and what was given.
 */
public final class PlanException extends IllegalArgumentException {

    private final String field;
    private final String problem;

    public PlanException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    /** The offending field, e.g. {@code min_gap}. */
    public String field() {
        return field;
    }

    /** What is wrong with it, without the field name, e.g. {@code must be >= duration (got 50 ms < 100 ms)}. */
    public String problem() {
        return problem;
    }
}
