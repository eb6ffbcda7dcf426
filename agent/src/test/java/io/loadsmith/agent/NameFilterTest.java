package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.ClassFileTransformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NameFilterTest {

    private static final byte[] BYTES = {1, 2, 3};
    private static final byte[] TRANSFORMED = {4, 5};

    private static final Set<String> TARGETS = Set.of("org.eclipse.jetty.server.Server", "a.B$C");

    private final List<String> delegated = new ArrayList<>();
    private final ClassFileTransformer recording = new ClassFileTransformer() {
        @Override
        public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                                java.security.ProtectionDomain domain, byte[] buffer) {
            delegated.add(className);
            return TRANSFORMED;
        }
    };
    private final NameFilter filter = new NameFilter(TARGETS, recording);

    @Test
    void a_class_that_is_no_target_never_reaches_the_delegate() throws Exception {
        assertThat(filter.transform(null, null, "org/eclipse/jetty/server/Request", null, null, BYTES)).isNull();
        assertThat(filter.transform(null, null, null, null, null, BYTES)).isNull();
        assertThat(delegated).isEmpty();
    }

    @Test
    void a_target_class_goes_through_the_delegate_and_is_noted_as_handled_for_its_loader() throws Exception {
        ClassLoader loader = NameFilterTest.class.getClassLoader();

        assertThat(filter.transform(null, loader, "a/B$C", null, null, BYTES)).isEqualTo(TRANSFORMED);
        assertThat(delegated).containsExactly("a/B$C");
        assertThat(filter.handledKeys()).containsExactly(NameFilter.key("a.B$C", loader));
    }

    @Test
    void a_retransformed_target_class_is_noted_as_handled_too() throws Exception {
        assertThat(filter.transform(null, null, "org/eclipse/jetty/server/Server", String.class, null, BYTES)).isEqualTo(TRANSFORMED);
        assertThat(filter.handledKeys()).containsExactly(NameFilter.key("org.eclipse.jetty.server.Server", null));
    }

    @Test
    void a_delegate_that_throws_leaves_the_class_unchanged_and_nothing_reaches_the_caller() throws Exception {
        NameFilter broken = new NameFilter(TARGETS, new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                                    java.security.ProtectionDomain domain, byte[] buffer) {
                throw new IllegalStateException("broken");
            }
        });

        assertThat(broken.transform(null, null, "a/B$C", null, null, BYTES)).isNull();
    }

    @Test
    void is_target_takes_binary_names() {
        assertThat(filter.isTarget("a.B$C")).isTrue();
        assertThat(filter.isTarget("a.B")).isFalse();
    }
}
