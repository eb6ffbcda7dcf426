package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.GateOnEnter;
import io.loadsmith.agent.target.GateOnEnterTraced0;
import io.loadsmith.agent.target.GateOnEnterTraced1;
import io.loadsmith.agent.target.GateOnExit;
import io.loadsmith.agent.target.Target;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the gates of the enabled targets with one Byte Buddy {@link AgentBuilder}, behind a
 * {@link NameFilter} so that only classes a target names ever reach Byte Buddy: advice only (decorating
 * type strategy, no change of class format), descriptions parsed lazily from the class file, the loaded
 * target classes retransformed one by one, an ignore matcher of our own that lets through exactly the
 * classes a target names (so the platform loader's {@code sun.net.httpserver} is reached), and a read
 * edge from every instrumented module to the gate's.
 */
final class Instrumenter {

    private Instrumenter() {
    }

    /** Binary names of the classes {@code targets} gate. */
    static Set<String> typeNames(List<Target> targets) {
        Set<String> names = new HashSet<>();
        for (Target target : targets) {
            for (Gate gate : target.gates()) {
                names.add(gate.typeName());
            }
        }
        return names;
    }

    /**
     * Builds Byte Buddy's transformer, registers it behind a {@link NameFilter} and retransforms the target
     * classes already loaded (looking twice, {@value #RESCAN_MILLIS} ms apart, for a class that was still
     * being defined while the filter was registered). When it returns, every loaded target class is gated
     * and every later one will be as it loads; {@link #lookAgain} covers a class whose definition took
     * longer.
     */
    static NameFilter install(Instrumentation instrumentation, List<Target> targets, MatchRegistry registry, Class<?> gateClass) {
        return install(instrumentation, targets, registry, gateClass, false);
    }

    /**
     * {@link #install(Instrumentation, List, MatchRegistry, Class)}; with {@code traceHeader} the entry gates
     * that see the response ({@link Gate#responseArgument()}) also put the {@code Loadsmith-Replica} header
     * on it ({@link GateOnEnterTraced0}, {@link GateOnEnterTraced1}); the others stay as they are.
     */
    static NameFilter install(Instrumentation instrumentation, List<Target> targets, MatchRegistry registry,
                              Class<?> gateClass, boolean traceHeader) {
        long t0 = System.nanoTime();
        Map<String, List<Target>> byType = new LinkedHashMap<>();
        for (Target target : targets) {
            for (Gate gate : target.gates()) {
                List<Target> list = byType.computeIfAbsent(gate.typeName(), k -> new ArrayList<>());
                if (!list.contains(target)) {
                    list.add(target);
                }
            }
        }
        Set<String> typeNames = typeNames(targets);
        // Cheap by construction: advice only, so a decorating type strategy (no method graph of the
        // type's hierarchy), descriptions parsed lazily from the class file bytes (no reflection on loaded
        // classes), no initializer hooks; NameFilter keeps every class whose name is not a target away
        // from Byte Buddy altogether, and only the loaded targets are retransformed (see install below).
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.PoolStrategy.Default.FAST)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new Listener(registry))
                .ignore((TypeDescription type, ClassLoader loader, JavaModule module, Class<?> redefined,
                         ProtectionDomain domain) -> !typeNames.contains(type.getName()))
                .assureReadEdgeTo(instrumentation, gateClass);
        for (Map.Entry<String, List<Target>> entry : byType.entrySet()) {
            String typeName = entry.getKey();
            for (Target target : entry.getValue()) {
                AgentBuilder.Transformer.ForAdvice advice = new AgentBuilder.Transformer.ForAdvice()
                        .include(Instrumenter.class.getClassLoader())
                        .withExceptionHandler(Advice.ExceptionHandler.Default.SUPPRESSING);
                for (Gate gate : target.gates()) {
                    if (!gate.typeName().equals(typeName)) {
                        continue;
                    }
                    if (gate.onEnter()) {
                        advice = advice.advice(gate.methods(), enterAdvice(gate, traceHeader));
                    }
                    if (gate.onExit()) {
                        advice = advice.advice(gate.methods(), GateOnExit.class.getName());
                    }
                }
                builder = builder
                        .type((TypeDescription type, ClassLoader loader, JavaModule module, Class<?> redefined,
                               ProtectionDomain domain) -> type.getName().equals(typeName) && target.guardAccepts(loader))
                        .transform(new Recording(registry, target, typeName))
                        .transform(advice);
            }
        }
        NameFilter filter = new NameFilter(typeNames, builder.makeRaw());
        instrumentation.addTransformer(filter, true);
        long t1 = System.nanoTime();
        retransformLoaded(instrumentation, filter);
        pause(RESCAN_MILLIS);
        retransformLoaded(instrumentation, filter);
        long t2 = System.nanoTime();
        AgentLog.debug("instrumentation: Byte Buddy transformer built " + (t1 - t0) / 1_000_000 + " ms, loaded targets retransformed "
                + (t2 - t1) / 1_000_000 + " ms");
        return filter;
    }

    /** The advice at the entry of {@code gate}'s methods. */
    static String enterAdvice(Gate gate, boolean traceHeader) {
        if (!traceHeader || gate.responseArgument() == Gate.NO_RESPONSE) {
            return GateOnEnter.class.getName();
        }
        return gate.responseArgument() == 0 ? GateOnEnterTraced0.class.getName() : GateOnEnterTraced1.class.getName();
    }

    /**
     * Looks for target classes once more, {@value #LATE_LOOK_MILLIS} ms later (call it off the host's
     * threads, after the admin API started): a class whose definition began before the filter was
     * registered and ended after the last look would otherwise stay ungated.
     */
    static void lookAgain(Instrumentation instrumentation, NameFilter filter) {
        pause(LATE_LOOK_MILLIS);
        retransformLoaded(instrumentation, filter);
    }

    /** Removes {@code filter} and retransforms the target classes back to their own code. */
    static void uninstall(Instrumentation instrumentation, NameFilter filter) {
        instrumentation.removeTransformer(filter);
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (filter.isTarget(type.getName()) && instrumentation.isModifiableClass(type)) {
                try {
                    instrumentation.retransformClasses(type);
                } catch (Throwable t) {
                    AgentLog.errorOnce("restore:" + type.getName(), "could not restore " + type.getName() + ": " + t, t);
                }
            }
        }
    }

    /** Between the two looks for loaded target classes in {@link #install}. */
    private static final long RESCAN_MILLIS = 20;
    /** Before the last look, {@link #lookAgain}. */
    private static final long LATE_LOOK_MILLIS = 1_000;

    /** Retransforms the loaded classes whose name is a target's and that {@code filter} has not handled yet (a failure is logged). */
    private static void retransformLoaded(Instrumentation instrumentation, NameFilter filter) {
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (!filter.isTarget(type.getName()) || filter.handledKeys().contains(NameFilter.key(type.getName(), type.getClassLoader()))
                    || !instrumentation.isModifiableClass(type)) {
                continue;
            }
            try {
                instrumentation.retransformClasses(type);
            } catch (Throwable t) {
                AgentLog.errorOnce("retransform:" + type.getName(), "could not gate " + type.getName() + ": " + t, t);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Notes which target matched which class, before the advice is applied. */
    private record Recording(MatchRegistry registry, Target target, String typeName) implements AgentBuilder.Transformer {
        @Override
        public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                                JavaModule module, ProtectionDomain domain) {
            registry.matched(target, typeName, loader);
            return builder;
        }
    }

    /** Logs what was instrumented (at log=debug) and every failure once. */
    private static final class Listener extends AgentBuilder.Listener.Adapter {
        private final MatchRegistry registry;

        Listener(MatchRegistry registry) {
            this.registry = registry;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            registry.transformed(type.getName(), loader);
            if (AgentLog.debugEnabled()) {
                AgentLog.debug("gated " + type.getName() + (loaded ? " (retransformed)" : "") + " in " + loader);
            }
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable throwable) {
            registry.failed(typeName, throwable);
            AgentLog.errorOnce("transform:" + typeName, "could not gate " + typeName + ": " + throwable, throwable);
        }
    }
}
