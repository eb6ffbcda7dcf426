package io.loadsmith.agent.target.method;

import static io.loadsmith.agent.target.MethodMatcher.named;

import io.loadsmith.agent.AgentOptions.MethodRef;
import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * Methods the user names with {@code method=com.acme.Foo#bar}: every non-abstract method of that name
 * declared in that class (all overloads) is gated at its start and at its end. Use it for a server the
 * agent does not know, or for a handler that must be held exactly.
 */
public final class MethodTarget {

    private MethodTarget() {
    }

    public static Target target(List<MethodRef> methods) {
        List<Gate> gates = new ArrayList<>();
        for (MethodRef ref : methods) {
            gates.add(Gate.around(ref.className(),
                    named(ref.methodName()),
                    ref.methodName() + "(..)"));
        }
        return new Target("method", "the methods named with method=Class#method", List.of(), gates);
    }
}
