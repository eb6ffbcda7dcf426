package io.loadsmith.agent.target;

import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Which methods of a gated class a {@link Gate} holds, read from the class file as it loads (access flags,
 * name and descriptor: nothing is loaded or resolved). Chained left to right:
 * {@code named("commit").or(named("sendHeaders")).and(takesArguments(0))} is
 * {@code (commit or sendHeaders) and no arguments}. Methods without code (abstract, native) are never
 * gated, whatever matches.
 */
@FunctionalInterface
public interface MethodMatcher {

    /**
     * @param access     the method's access flags ({@link Opcodes#ACC_BRIDGE}, ...)
     * @param name       its name ({@code <init>} for a constructor)
     * @param descriptor its descriptor ({@code (Ljava/lang/String;I)V})
     */
    boolean matches(int access, String name, String descriptor);

    default MethodMatcher and(MethodMatcher other) {
        return (access, name, descriptor) -> matches(access, name, descriptor) && other.matches(access, name, descriptor);
    }

    default MethodMatcher or(MethodMatcher other) {
        return (access, name, descriptor) -> matches(access, name, descriptor) || other.matches(access, name, descriptor);
    }

    /** Methods called {@code methodName} (never a constructor: its name is {@code <init>}). */
    static MethodMatcher named(String methodName) {
        return (access, name, descriptor) -> name.equals(methodName);
    }

    /** Methods with exactly {@code count} parameters. */
    static MethodMatcher takesArguments(int count) {
        return (access, name, descriptor) -> Type.getArgumentTypes(descriptor).length == count;
    }

    /** Methods whose parameter {@code index} is declared as the class {@code typeName} (binary name). */
    static MethodMatcher takesArgument(int index, String typeName) {
        return (access, name, descriptor) -> {
            Type[] arguments = Type.getArgumentTypes(descriptor);
            return index < arguments.length && arguments[index].getClassName().equals(typeName);
        };
    }

    /** Methods that are not bridges (the compiler's forwarding copies of a generic override). */
    static MethodMatcher notBridge() {
        return (access, name, descriptor) -> (access & Opcodes.ACC_BRIDGE) == 0;
    }
}
