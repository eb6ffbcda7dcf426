package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The built, shaded jar: everything it ships lives under the agent's own namespace. */
class AgentJarIT {

    @Test
    void every_entry_is_under_the_agent_namespace_or_meta_inf() throws Exception {
        List<String> outside = new ArrayList<>();
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                boolean parentFolder = entry.isDirectory() && "io/loadsmith/agent/".startsWith(name);
                if (!parentFolder && !name.startsWith("io/loadsmith/agent/") && !name.startsWith("META-INF/")) {
                    outside.add(name);
                }
            }
        }
        assertThat(outside).isEmpty();
    }

    @Test
    void byte_buddy_stall_service_and_jackson_are_relocated_and_module_info_is_dropped() throws Exception {
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
            assertThat(jar.getEntry("io/loadsmith/agent/shaded/net/bytebuddy/ByteBuddy.class")).isNotNull();
            assertThat(jar.getEntry("io/loadsmith/agent/shaded/net/bytebuddy/agent/ByteBuddyAgent.class")).isNotNull();
            assertThat(jar.getEntry("io/loadsmith/agent/shaded/stall/gate/StallGate.class")).isNotNull();
            assertThat(jar.getEntry("io/loadsmith/agent/shaded/com/fasterxml/jackson/core/JsonFactory.class")).isNotNull();
            assertThat(Collections.list(jar.entries())).noneMatch(e -> e.getName().endsWith("module-info.class"));
        }
    }

    /**
     * The agent's and stall-service's classes concatenate strings with StringBuilder ({@code -XDstringConcat=inline}):
     * a class that refers to {@code StringConcatFactory} would bootstrap it, and spin its method-handle classes,
     * on the agent's start-up thread while the host starts.
     */
    @Test
    void no_class_of_the_agent_or_stall_service_concatenates_through_invokedynamic() throws Exception {
        byte[] factory = "java/lang/invoke/StringConcatFactory".getBytes(StandardCharsets.US_ASCII);
        List<String> indy = new ArrayList<>();
        int read = 0;
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                boolean own = name.startsWith("io/loadsmith/agent/") && !name.startsWith("io/loadsmith/agent/shaded/")
                        || name.startsWith("io/loadsmith/agent/shaded/stall/");
                if (own && name.endsWith(".class")) {
                    read++;
                    try (InputStream in = jar.getInputStream(entry)) {
                        if (contains(in.readAllBytes(), factory)) {
                            indy.add(name);
                        }
                    }
                }
            }
        }
        assertThat(read).as("classes read").isGreaterThan(100);
        assertThat(indy).isEmpty();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void the_manifest_names_the_entry_points_and_keeps_multi_release() throws Exception {
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo("io.loadsmith.agent.LoadsmithAgent");
            assertThat(main.getValue("Agent-Class")).isEqualTo("io.loadsmith.agent.LoadsmithAgent");
            assertThat(main.getValue("Main-Class")).isEqualTo("io.loadsmith.agent.Launcher");
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
            assertThat(main.getValue("Can-Redefine-Classes")).isEqualTo("true");
            assertThat(main.getValue("Multi-Release")).isEqualTo("true");
        }
    }
}
