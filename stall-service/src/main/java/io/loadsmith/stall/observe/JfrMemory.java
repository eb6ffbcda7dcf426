package io.loadsmith.stall.observe;

import com.sun.management.HotSpotDiagnosticMXBean;
import jdk.jfr.FlightRecorder;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The size of JFR's buffers in this JVM, set once before an observer first starts JFR: JFR allocates them
 * when it starts and keeps them until the JVM exits, at the JDK's sizes 20 global buffers of 512 KB (10 MB)
 * for the handful of events a pause observer records a second. {@link #small()} asks for
 * {@value #SMALL_GLOBAL_BUFFER_COUNT} global buffers of {@value #SMALL_GLOBAL_BUFFER_SIZE_KB} KB (1 MB) and
 * thread buffers of {@value #SMALL_THREAD_BUFFER_SIZE_KB} KB, through the {@code JFR.configure} diagnostic
 * command (the {@code DiagnosticCommand} MBean), which sizes them only before JFR has started.
 *
 * <p>It leaves JFR's sizes as they are when JFR has started already (a recording of the service's own, or
 * another observer's), when the service set {@code -XX:FlightRecorderOptions}, or when the sizes are no
 * longer the JDK's defaults (a {@code jcmd PID JFR.configure} before): the service's own choice stands.
 * Once JFR runs its sizes hold for every recording of the JVM, the service's own included: a recording of
 * many events (a profiling one) then writes its buffers to disk more often. What happened, JVM-wide, is
 * {@link #status()}. Never throws: a failure is logged once and JFR starts with the JDK's sizes.
 * Thread-safe.
 */
public final class JfrMemory {

    /** Global buffers asked for by {@link #small()} (the JDK's default: 20). */
    public static final int SMALL_GLOBAL_BUFFER_COUNT = 16;
    /** Size of each global buffer asked for by {@link #small()}, in KB (the JDK's default: 512). */
    public static final int SMALL_GLOBAL_BUFFER_SIZE_KB = 64;
    /** Size of each thread's buffer asked for by {@link #small()}, in KB (the JDK's default, 8, kept). */
    public static final int SMALL_THREAD_BUFFER_SIZE_KB = 8;

    private static final long DEFAULT_GLOBAL_BUFFER_COUNT = 20;
    private static final long DEFAULT_GLOBAL_BUFFER_SIZE_KB = 512;
    private static final long DEFAULT_THREAD_BUFFER_SIZE_KB = 8;
    private static final long DEFAULT_MEMORY_SIZE_KB = 10 * 1024;
    private static final Pattern SIZE = Pattern.compile("^(Global buffer count|Global buffer size|Thread buffer size|Memory size):\\s*([0-9.]+)\\s*(bytes|kB|MB|GB)?\\s*$",
            Pattern.MULTILINE);

    /** JVM-wide, as JFR is; guarded by the class. Null until the first {@link #beforeFirstStart}. */
    private static Map<String, Object> status;

    private JfrMemory() {
    }

    /** Small buffers for the few events of a pause observer (see the class comment). */
    public static JfrMemory small() {
        return new JfrMemory();
    }

    /**
     * What was done, JVM-wide: {@code {"state": "pending"}} before any observer of this copy of the class
     * started JFR; else {@code state} {@code set} (this class sized the buffers), {@code left} (with the
     * {@code reason}) or {@code failed} (with the {@code reason}), and, when they could be read, JFR's sizes:
     * {@code global_buffer_count}, {@code global_buffer_size_kb}, {@code thread_buffer_size_kb},
     * {@code memory_size_kb}. A new map each call.
     */
    public static synchronized Map<String, Object> status() {
        return status == null ? Map.of("state", "pending") : new LinkedHashMap<>(status);
    }

    /** Sizes JFR's buffers unless JFR has started or the service chose them; once per JVM; never throws. */
    void beforeFirstStart() {
        synchronized (JfrMemory.class) {
            if (status != null) {
                return;
            }
            Map<String, Object> result = new LinkedHashMap<>();
            try {
                configure(result);
            } catch (Throwable t) {
                result.clear();
                result.put("state", "failed");
                result.put("reason", t.toString());
                ObserverLog.once("jfr-memory", "pause observer: JFR's buffers could not be sized, JFR starts with the JDK's sizes (" + t + ")", null);
            }
            status = result;
        }
    }

    private static void configure(Map<String, Object> result) throws Exception {
        if (FlightRecorder.isInitialized()) {
            left(result, "JFR had started before the observer");
            return;
        }
        String options = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("FlightRecorderOptions").getValue();
        if (options != null && !options.isBlank()) {
            left(result, "the service set -XX:FlightRecorderOptions=" + options);
            return;
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
        Map<String, Long> before = sizes(jfrConfigure(server, name));
        if (before.get("Global buffer count") != DEFAULT_GLOBAL_BUFFER_COUNT
                || before.get("Global buffer size") != DEFAULT_GLOBAL_BUFFER_SIZE_KB
                || before.get("Thread buffer size") != DEFAULT_THREAD_BUFFER_SIZE_KB
                || before.get("Memory size") != DEFAULT_MEMORY_SIZE_KB) {
            left(result, "JFR's sizes had been set before (JFR.configure)");
            put(result, before);
            return;
        }
        jfrConfigure(server, name,
                "globalbuffercount=" + SMALL_GLOBAL_BUFFER_COUNT,
                "globalbuffersize=" + SMALL_GLOBAL_BUFFER_SIZE_KB + "k",
                "thread_buffer_size=" + SMALL_THREAD_BUFFER_SIZE_KB + "k",
                "memorysize=" + SMALL_GLOBAL_BUFFER_COUNT * SMALL_GLOBAL_BUFFER_SIZE_KB + "k");
        result.put("state", "set");
        put(result, sizes(jfrConfigure(server, name)));
    }

    private static void left(Map<String, Object> result, String reason) {
        result.put("state", "left");
        result.put("reason", reason);
    }

    private static void put(Map<String, Object> result, Map<String, Long> sizes) {
        result.put("global_buffer_count", sizes.get("Global buffer count"));
        result.put("global_buffer_size_kb", sizes.get("Global buffer size"));
        result.put("thread_buffer_size_kb", sizes.get("Thread buffer size"));
        result.put("memory_size_kb", sizes.get("Memory size"));
    }

    private static String jfrConfigure(MBeanServer server, ObjectName name, String... arguments) throws Exception {
        Object answer = server.invoke(name, "jfrConfigure", new Object[]{arguments}, new String[]{String[].class.getName()});
        return String.valueOf(answer);
    }

    /** The four sizes of {@code JFR.configure}'s answer, the count as it is, the sizes in KB. */
    static Map<String, Long> sizes(String configuration) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        Matcher m = SIZE.matcher(configuration);
        while (m.find()) {
            double value = Double.parseDouble(m.group(2));
            String unit = m.group(3) == null ? "" : m.group(3).toLowerCase(Locale.ROOT);
            double kb = switch (unit) {
                case "bytes" -> value / 1024;
                case "mb" -> value * 1024;
                case "gb" -> value * 1024 * 1024;
                case "kb" -> value;
                default -> value; // the count
            };
            sizes.put(m.group(1), Math.round(kb));
        }
        for (String key : new String[]{"Global buffer count", "Global buffer size", "Thread buffer size", "Memory size"}) {
            if (!sizes.containsKey(key)) {
                throw new IllegalStateException("JFR.configure did not give its " + key.toLowerCase(Locale.ROOT) + ": " + configuration);
            }
        }
        return sizes;
    }
}
