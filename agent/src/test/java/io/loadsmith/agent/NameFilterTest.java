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

    private final NameFilter filter = new NameFilter(Set.of("org.eclipse.jetty.server.Server", "a.B$C"));
    private final List<String> delegated = new ArrayList<>();
    private final ClassFileTransformer recording = new ClassFileTransformer() {
        @Override
        public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                                java.security.ProtectionDomain domain, byte[] buffer) {
            delegated.add(className);
            return TRANSFORMED;
        }
    };

    @Test
    void a_class_that_is_no_target_never_reaches_the_delegate() throws Exception {
        filter.ready(recording);

        assertThat(filter.transform(null, null, "org/eclipse/jetty/server/Request", null, null, BYTES)).isNull();
        assertThat(filter.transform(null, null, null, null, null, BYTES)).isNull();
        assertThat(delegated).isEmpty();
    }

    @Test
    void a_target_class_goes_through_the_delegate_once_it_is_ready() throws Exception {
        filter.ready(recording);

        assertThat(filter.transform(null, null, "a/B$C", null, null, BYTES)).isEqualTo(TRANSFORMED);
        assertThat(delegated).containsExactly("a/B$C");
        assertThat(filter.missedKeys()).isEmpty();
    }

    @Test
    void a_target_class_that_loads_before_the_delegate_is_ready_passes_unchanged_and_is_noted_as_missed() throws Exception {
        ClassLoader loader = NameFilterTest.class.getClassLoader();

        assertThat(filter.transform(null, loader, "org/eclipse/jetty/server/Server", null, null, BYTES)).isNull();
        assertThat(filter.missedKeys()).containsExactly(NameFilter.key("org.eclipse.jetty.server.Server", loader));
    }

    @Test
    void a_delegate_that_throws_leaves_the_class_unchanged_and_nothing_reaches_the_caller() throws Exception {
        filter.ready(new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                                    java.security.ProtectionDomain domain, byte[] buffer) {
                throw new IllegalStateException("broken");
            }
        });

        assertThat(filter.transform(null, null, "a/B$C", null, null, BYTES)).isNull();
    }

    @Test
    void is_target_takes_binary_names() {
        assertThat(filter.isTarget("a.B$C")).isTrue();
        assertThat(filter.isTarget("a.B")).isFalse();
    }
}
