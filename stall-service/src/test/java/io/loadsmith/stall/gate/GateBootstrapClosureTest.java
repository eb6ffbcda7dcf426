package io.loadsmith.stall.gate;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent puts the gate on the bootstrap class path, where the JDK's HTTP server (a platform-loader
 * module) and anything else outside java.base cannot be seen. This test loads the gate in a loader
 * whose parent is the bootstrap loader and that serves only {@link #BOOTSTRAP_CLASSES}: if the gate ever
 * needs another class, it fails here, not in a customer's service.
 */
class GateBootstrapClosureTest {

    /** Every class the gate needs; the agent's bootstrap jar must hold exactly these (relocated). */
    static final Set<String> BOOTSTRAP_CLASSES = Set.of(
            "io.loadsmith.stall.gate.StallGate",
            "io.loadsmith.stall.gate.GateWindow",
            "io.loadsmith.stall.gate.HoldListener",
            "io.loadsmith.stall.clock.Clock",
            "io.loadsmith.stall.clock.SystemClock",
            "io.loadsmith.stall.plan.StallKind",
            "io.loadsmith.stall.plan.PlanException");

    @Test
    void the_gate_runs_with_nothing_but_java_base_and_its_seven_classes() throws Exception {
        ClassLoader bootstrapOnly = new OnlyTheseClasses(BOOTSTRAP_CLASSES);
        Class<?> gateClass = Class.forName("io.loadsmith.stall.gate.StallGate", true, bootstrapOnly);
        Class<?> clockClass = Class.forName("io.loadsmith.stall.clock.Clock", true, bootstrapOnly);
        Class<?> kindClass = Class.forName("io.loadsmith.stall.plan.StallKind", true, bootstrapOnly);
        assertThat(gateClass.getClassLoader()).isSameAs(bootstrapOnly);

        Object global = gateClass.getMethod("global").invoke(null);
        gateClass.getMethod("pass").invoke(global);
        gateClass.getMethod("exemptCurrentThread").invoke(null);

        Object gate = gateClass.getConstructor().newInstance();
        Object clock = clockClass.getMethod("system").invoke(null);
        Object block = kindClass.getMethod("valueOf", String.class).invoke(null, "BLOCK");
        Method open = gateClass.getMethod("open", clockClass, long.class, kindClass);
        Object window = open.invoke(gate, clock, Long.MAX_VALUE, block);
        gateClass.getMethod("pass").invoke(gate); // exempt: passes
        window.getClass().getMethod("close").invoke(window);
        Class<?> listenerClass = Class.forName("io.loadsmith.stall.gate.HoldListener", true, bootstrapOnly);
        Object withListener = gateClass.getMethod("open", clockClass, long.class, kindClass, listenerClass)
                .invoke(gate, clock, Long.MAX_VALUE, block, null);
        withListener.getClass().getMethod("close").invoke(withListener);
        assertThat(gateClass.getMethod("openWindow").invoke(gate)).isNull();
        kindClass.getMethod("fromWireName", String.class).invoke(null, "spin");
    }

    /** Defines the named classes itself from this module's class files; everything else: bootstrap or nothing. */
    private static final class OnlyTheseClasses extends ClassLoader {
        private final Set<String> names;

        OnlyTheseClasses(Set<String> names) {
            super("bootstrap-only", null);
            this.names = names;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!names.contains(name)) {
                throw new ClassNotFoundException(name + " is not on the agent's bootstrap path");
            }
            try (InputStream in = GateBootstrapClosureTest.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
