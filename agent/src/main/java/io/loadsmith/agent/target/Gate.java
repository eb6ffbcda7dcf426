package io.loadsmith.agent.target;

/**
 * One place where the agent calls the stall gate: the methods of one class that match, gated on
 * entry, on exit, or both.
 *
 * @param typeName binary name of the class whose own methods are instrumented ({@code a.b.C$D})
 * @param methods which of its declared methods
 * @param methodLabel how {@code /health} names them ({@code handle(Request, Response, Callback)})
 * @param onEnter gate before the method body runs
 * @param onExit gate after it returns or throws
 * @param requestPath true where a request passes (entry or response); every gate is, today
 * @param responseArgument the argument (0 or 1) of the matching methods that carries the response, so
 *                         that {@code trace-header=on} can put the {@code Loadsmith-Replica} header on it
 *                         at the entry gate; {@link #NO_RESPONSE} where none does
 */
public record Gate(String typeName, MethodMatcher methods, String methodLabel,
                   boolean onEnter, boolean onExit, boolean requestPath, int responseArgument) {

    /** The {@link #responseArgument} of a gate whose methods see no response. */
    public static final int NO_RESPONSE = -1;

    /** A gate at the start of the matching methods. */
    public static Gate enter(String typeName, MethodMatcher methods, String methodLabel) {
        return new Gate(typeName, methods, methodLabel, true, false, true, NO_RESPONSE);
    }

    /** A gate at the start and at the end of the matching methods. */
    public static Gate around(String typeName, MethodMatcher methods, String methodLabel) {
        return new Gate(typeName, methods, methodLabel, true, true, true, NO_RESPONSE);
    }

    /** This gate, its methods' argument {@code index} carrying the response (or what leads to it). */
    public Gate withResponseArgument(int index) {
        return new Gate(typeName, methods, methodLabel, onEnter, onExit, requestPath, index);
    }

    /** How {@code /health} shows this gate: {@code a.b.C#method (entry)}. */
    public String describe() {
        String where = onEnter && onExit ? "entry and exit" : onEnter ? "entry" : "exit";
        return typeName + "#" + methodLabel + " (" + where + ")";
    }
}
