package io.loadsmith.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transformer the JVM calls for every class it loads or retransforms once the agent's gates are
 * ready: one hash lookup of the class's name, and only a class a target gates goes on to the gate
 * weaver. It is registered only once the weaver is built, so the classes the host loads
 * while the agent starts never pass through a class file load hook at all (the JVM calls none while no
 * transformer is registered; with one, it copies every class's bytes to it, even those it maps from its
 * class-data sharing archive); the installer then retransforms the target classes that loaded before,
 * skipping those this filter already handed on ({@link #handledKeys()}). Plain JDK types only. Never
 * throws.
 */
final class NameFilter implements ClassFileTransformer {

    private final Set<String> internalNames = new HashSet<>();
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final ClassFileTransformer delegate;

    /**
     * @param typeNames binary names of the classes the targets gate ({@code a.b.C$D})
     * @param delegate the transformer that gates them
     */
    NameFilter(Set<String> typeNames, ClassFileTransformer delegate) {
        for (String name : typeNames) {
            internalNames.add(name.replace('.', '/'));
        }
        this.delegate = delegate;
    }

    /** True when {@code binaryName} is a class some target gates. */
    boolean isTarget(String binaryName) {
        return internalNames.contains(binaryName.replace('.', '/'));
    }

    /** {@link #key} of each target class that went through the delegate, as it loaded or retransformed. */
    Set<String> handledKeys() {
        return handled;
    }

    /** Identifies a class by its binary name and its loader. */
    static String key(String binaryName, ClassLoader loader) {
        return binaryName + "@" + System.identityHashCode(loader);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] classfileBuffer) {
        if (className == null || !internalNames.contains(className)) {
            return null;
        }
        try {
            handled.add(key(className.replace('/', '.'), loader));
            return delegate.transform(module, loader, className, redefined, domain, classfileBuffer);
        } catch (Throwable t) {
            AgentLog.errorOnce("transform:" + className, "could not gate " + className + ": " + t, t);
            return null;
        }
    }
}
