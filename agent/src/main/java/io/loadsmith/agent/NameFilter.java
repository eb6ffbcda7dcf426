package io.loadsmith.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transformer the JVM calls for every class it loads or retransforms: one hash lookup of the class's
 * name, and only the name of a class a target gates goes further. It is registered before Byte Buddy is
 * loaded (so start-up pays nothing for Byte Buddy on the host's threads); until {@link #ready} hands it
 * Byte Buddy's transformer, a target class that loads is let through unchanged and noted in
 * {@link #missedKeys()}, so the installer retransforms it. Plain JDK types only: loading this class
 * loads no Byte Buddy class. Never throws.
 */
final class NameFilter implements ClassFileTransformer {

    private final Set<String> internalNames = new HashSet<>();
    private final Set<String> missed = ConcurrentHashMap.newKeySet();
    private volatile ClassFileTransformer delegate;

    /** @param typeNames binary names of the classes the targets gate ({@code a.b.C$D}) */
    NameFilter(Set<String> typeNames) {
        for (String name : typeNames) {
            internalNames.add(name.replace('.', '/'));
        }
    }

    /** True when {@code binaryName} is a class some target gates. */
    boolean isTarget(String binaryName) {
        return internalNames.contains(binaryName.replace('.', '/'));
    }

    /** From now on, target classes go through {@code transformer}. */
    void ready(ClassFileTransformer transformer) {
        delegate = transformer;
    }

    /** {@link #key} of each target class that loaded before {@link #ready}. */
    Set<String> missedKeys() {
        return missed;
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
            ClassFileTransformer transformer = delegate;
            if (transformer == null) {
                missed.add(key(className.replace('/', '.'), loader));
                return null;
            }
            return transformer.transform(module, loader, className, redefined, domain, classfileBuffer);
        } catch (Throwable t) {
            AgentLog.errorOnce("transform:" + className, "could not gate " + className + ": " + t, t);
            return null;
        }
    }
}
