package io.loadsmith.tester.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A text with {@code ${name}} placeholders filled from a data row. Parsed once; {@link #render} does one
 * pass over precomputed parts. {@code $${} writes a literal {@code ${}.
 */
public final class Template {

    private final String source;
    private final List<String> literals;
    private final List<String> variables;

    private Template(String source, List<String> literals, List<String> variables) {
        this.source = source;
        this.literals = literals;
        this.variables = variables;
    }

    /**
     * @throws IllegalArgumentException when a placeholder is not closed or is empty
     */
    public static Template parse(String source) {
        List<String> literals = new ArrayList<>();
        List<String> variables = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (source.startsWith("${", i)) {
                int close = source.indexOf('}', i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("has an unclosed ${ at character " + (i + 1));
                }
                String name = source.substring(i + 2, close).trim();
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("has an empty ${} at character " + (i + 1));
                }
                literals.add(literal.toString());
                literal.setLength(0);
                variables.add(name);
                i = close + 1;
            } else {
                literal.append(source.charAt(i));
                i++;
            }
        }
        literals.add(literal.toString());
        return new Template(source, List.copyOf(literals), List.copyOf(variables));
    }

    /** The names used, in order of first use. */
    public Set<String> variables() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(variables));
    }

    /** The texts between placeholders, one more than {@link #placeholders()} ({@code $${} already undone). */
    public List<String> literals() {
        return literals;
    }

    /** The name of each placeholder, in order (a name used twice is here twice). */
    public List<String> placeholders() {
        return variables;
    }

    public boolean isConstant() {
        return variables.isEmpty();
    }

    public String source() {
        return source;
    }

    /** Fills every placeholder with {@code values.apply(name)}. */
    public String render(Function<String, String> values) {
        if (variables.isEmpty()) {
            return literals.get(0);
        }
        StringBuilder out = new StringBuilder(source.length() + 16);
        for (int i = 0; i < variables.size(); i++) {
            out.append(literals.get(i)).append(values.apply(variables.get(i)));
        }
        return out.append(literals.get(variables.size())).toString();
    }

    @Override
    public String toString() {
        return source;
    }
}
