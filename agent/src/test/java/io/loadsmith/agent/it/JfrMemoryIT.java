package io.loadsmith.agent.it;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's pause observer sizes JFR's buffers small before it first starts JFR (jfr-memory=small, the
 * default), through JFR's own options and without starting the platform MBean server, and leaves a service's own {@code -XX:FlightRecorderOptions} as they are: seen from outside,
 * with {@code jcmd JFR.configure} and NMT's "Tracing" (JFR's native memory), in a service that runs the
 * agent.
 */
class JfrMemoryIT {

    private static final String APP = "io.loadsmith.agent.apps.JdkHttpApp";
    /**
     * JFR's native memory with the small buffers is about 6.2 MB on JDK 17 (1 MB of global buffers; its string
     * pool, checkpoint buffers and chunk writer, 5 MB, are fixed); 15.2 MB with the JDK's 10 MB of them.
     */
    private static final long TRACING_BOUND_KB = 9 * 1024;
    private static final Pattern TRACING = Pattern.compile("Tracing \\(reserved=\\d+KB, committed=(\\d+)KB");

    private static ChildJvm start(String... extraJvmArgs) throws Exception {
        List<String> jvmArgs = new ArrayList<>(AbstractServerStallIT.baseJvmArgs());
        jvmArgs.add("-XX:NativeMemoryTracking=summary");
        jvmArgs.addAll(List.of(extraJvmArgs));
        jvmArgs.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=admin=127.0.0.1:0");
        return ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs, List.of(), APP);
    }

    @Test
    void the_first_jfr_start_gets_one_megabyte_of_global_buffers_and_jfrs_native_memory_stays_under_9_mb() throws Exception {
        try (ChildJvm app = start()) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);
            admin.awaitPrepared();

            String health = admin.get("/health").body();
            String configuration = jcmd(app.pid(), "JFR.configure");
            long tracingKb = tracingKb(jcmd(app.pid(), "VM.native_memory summary"));

            assertThat(health).contains("\"jfr_memory\":{\"state\":\"set\",\"global_buffer_count\":16,\"global_buffer_size_kb\":64,"
                    + "\"thread_buffer_size_kb\":8,\"memory_size_kb\":1024}");
            assertThat(configuration).contains("Global buffer count: 16", "Global buffer size: 64.0 kB", "Thread buffer size: 8.0 kB");
            assertThat(tracingKb).as("NMT Tracing, KB").isPositive().isLessThan(TRACING_BOUND_KB);
            assertThat(jcmd(app.pid(), "GC.class_histogram")).as("the platform MBean server was not started for it")
                    .doesNotContain("com.sun.jmx.mbeanserver.JmxMBeanServer ");
        }
    }

    @Test
    void a_services_own_flight_recorder_options_are_left_as_they_are() throws Exception {
        try (ChildJvm app = start("-XX:FlightRecorderOptions=globalbuffersize=128k")) {
            app.appPort();
            Admin admin = new Admin(app.adminUrl(), null);
            admin.awaitPrepared();

            String health = admin.get("/health").body();
            String configuration = jcmd(app.pid(), "JFR.configure");

            assertThat(health).contains("\"jfr_memory\":{\"state\":\"left\",\"reason\":\"the service set -XX:FlightRecorderOptions=globalbuffersize=128k\"}");
            assertThat(configuration).contains("Global buffer count: 20", "Global buffer size: 128.0 kB");
        }
    }

    private static long tracingKb(String summary) {
        Matcher m = TRACING.matcher(summary);
        assertThat(m.find()).as("a Tracing line in %s", summary).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String jcmd(long pid, String command) throws Exception {
        Path jcmd = ChildJvm.currentJavaHome().resolve("bin").resolve("jcmd");
        List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        line.addAll(List.of(command.split(" ")));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
