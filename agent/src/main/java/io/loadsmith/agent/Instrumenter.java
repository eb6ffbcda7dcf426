package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.GateOnEnter;
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
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the gates of the enabled targets with one Byte Buddy {@link AgentBuilder}: advice only (no
 * change of class format), already-loaded classes retransformed, an ignore matcher of our own that lets
 * through exactly the classes a target names (so the platform loader's {@code sun.net.httpserver} is
 * reached), and a read edge from every instrumented module to the gate's.
 */
final class Instrumenter {

    private Instrumenter() {
    }

    static ResettableClassFileTransformer install(Instrumentation instrumentation, List<Target> targets,
                                                  MatchRegistry registry, Class<?> gateClass) {
        Map<String, List<Target>> byType = new LinkedHashMap<>();
        for (Target target : targets) {
            for (Gate gate : target.gates()) {
                List<Target> list = byType.computeIfAbsent(gate.typeName(), k -> new ArrayList<>());
                if (!list.contains(target)) {
                    list.add(target);
                }
            }
        }
        Set<String> typeNames = new HashSet<>(byType.keySet());
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
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
                        advice = advice.advice(gate.methods(), GateOnEnter.class.getName());
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
        return builder.installOn(instrumentation);
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
