package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GateBootstrapTest {

    interface Shape {
    }

    static class Base implements Shape {
    }

    static final class Leaf extends Base {
        static final class Nested {
        }
    }

    @Test
    void supertypes_come_before_the_classes_that_extend_or_implement_them() throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        for (Class<?> type : new Class<?>[] {Leaf.class, Leaf.Nested.class, Base.class, Shape.class}) {
            classes.put(type.getName(), bytes(type));
        }

        Map<String, byte[]> ordered = GateBootstrap.supertypesFirst(classes);

        assertThat(ordered.keySet()).containsExactly(Shape.class.getName(), Base.class.getName(), Leaf.class.getName(),
                Leaf.Nested.class.getName());
    }

    @Test
    void supertypes_outside_the_set_are_left_to_the_loader() throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        classes.put(Leaf.class.getName(), bytes(Leaf.class));

        assertThat(GateBootstrap.supertypesFirst(classes).keySet()).containsExactly(Leaf.class.getName());
    }

    private static byte[] bytes(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }
}
