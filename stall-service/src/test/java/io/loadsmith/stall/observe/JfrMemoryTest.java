package io.loadsmith.stall.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JfrMemoryTest {

    /** {@code jcmd PID JFR.configure} on JDK 17 after {@link JfrMemory#small()}. */
    private static final String JDK17 = """
            Current configuration:

            Repository path: N/A
            Stack depth: 64
            Global buffer count: 16
            Global buffer size: 64.0 kB
            Thread buffer size: 8.0 kB
            Memory size: 1.0 MB
            Max chunk size: 12.0 MB
            Sample threads: true
            """;

    /** The same on JDK 25, with the JDK's sizes. */
    private static final String JDK25 = """
            Current configuration:

            Preserve repository: false
            Repository path: N/A
            Dump path: /tmp

            Stack depth: 64
            Global buffer count: 20
            Global buffer size: 512.0 kB
            Thread buffer size: 8.0 kB
            Memory size: 10.0 MB
            Max chunk size: 12.0 MB
            """;

    @Test
    void the_sizes_of_jfr_configure_are_read_as_a_count_and_kilobytes() {
        assertThat(JfrMemory.sizes(JDK17)).containsExactly(
                entry("Global buffer count", 16), entry("Global buffer size", 64), entry("Thread buffer size", 8),
                entry("Memory size", 1024));
        assertThat(JfrMemory.sizes(JDK25)).containsExactly(
                entry("Global buffer count", 20), entry("Global buffer size", 512), entry("Thread buffer size", 8),
                entry("Memory size", 10 * 1024));
        assertThat(JfrMemory.sizes(JDK17.replace("8.0 kB", "8192 bytes").replace("1.0 MB", "0.001 GB")))
                .containsEntry("Thread buffer size", 8L).containsEntry("Memory size", 1049L);
    }

    @Test
    void an_answer_without_one_of_the_sizes_is_refused_with_the_answer() {
        assertThatThrownBy(() -> JfrMemory.sizes("Current configuration:\n\nGlobal buffer count: 16\n"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("JFR.configure did not give its global buffer size: Current configuration:");
    }

    @Test
    void the_small_sizes_are_one_megabyte_of_global_buffers_and_the_jdks_thread_buffers() {
        assertThat(JfrMemory.SMALL_GLOBAL_BUFFER_COUNT * JfrMemory.SMALL_GLOBAL_BUFFER_SIZE_KB).isEqualTo(1024);
        assertThat(JfrMemory.SMALL_THREAD_BUFFER_SIZE_KB).isEqualTo(8);
    }

    private static java.util.Map.Entry<String, Long> entry(String key, long value) {
        return java.util.Map.entry(key, value);
    }
}
