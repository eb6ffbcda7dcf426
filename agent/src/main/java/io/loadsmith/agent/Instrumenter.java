package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Installs the gates of the enabled targets: the {@link GateWeaver} behind a {@link NameFilter}, so that only
 * the classes a target names are ever read (the platform loader's {@code sun.net.httpserver} included), and
 * the target classes loaded before it retransformed one by one.
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
     * Registers the {@link GateWeaver} behind a {@link NameFilter} and retransforms the target classes already
     * loaded (looking twice, {@value #RESCAN_MILLIS} ms apart, for a class that was still being defined while
     * the filter was registered). When it returns, every loaded target class is gated and every later one will
     * be as it loads; {@link #lookAgain} covers a class whose definition took longer. With {@code traceHeader}
     * the entry gates that see the response ({@link Gate#responseArgument()}) also put the
     * {@code Loadsmith-Replica} header on it; the others stay as they are.
     */
    static NameFilter install(Instrumentation instrumentation, List<Target> targets, MatchRegistry registry,
                              Class<?> gateClass, boolean traceHeader) {
        long t0 = System.nanoTime();
        GateWeaver weaver = new GateWeaver(targets, registry, traceHeader, instrumentation, gateClass);
        NameFilter filter = new NameFilter(typeNames(targets), weaver);
        instrumentation.addTransformer(filter, true);
        long t1 = System.nanoTime();
        retransformLoaded(instrumentation, filter);
        pause(RESCAN_MILLIS);
        retransformLoaded(instrumentation, filter);
        long t2 = System.nanoTime();
        AgentLog.debug("instrumentation: weaver registered " + (t1 - t0) / 1_000_000 + " ms, loaded targets retransformed "
                + (t2 - t1) / 1_000_000 + " ms");
        return filter;
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
}
