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
 * command (the {@code DiagnosticCommand} MBean, whose MBean server loads some 480 classes in a service that
 * had none), or through the {@link Sizes} given to {@link #small(Sizes)} (the agent's reaches JFR's own
 * options without that server); either sizes them only before JFR has started.
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
    private static final String[] KEYS = {"Global buffer count", "Global buffer size", "Thread buffer size", "Memory size"};
    private static final Pattern SIZE = Pattern.compile("^(Global buffer count|Global buffer size|Thread buffer size|Memory size):\\s*([0-9.]+)\\s*(bytes|kB|MB|GB)?\\s*$",
            Pattern.MULTILINE);

    /** JVM-wide, as JFR is; guarded by the class. Null until the first {@link #beforeFirstStart}. */
    private static Map<String, Object> status;

    /** Reads and sets JFR's sizes; called once, before JFR's first start, on an observer's thread. */
    public interface Sizes {
        /**
         * JFR's sizes now, as {@code JFR.configure} names them ({@code Global buffer count}, and
         * {@code Global buffer size}, {@code Thread buffer size} and {@code Memory size} in KB).
         */
        Map<String, Long> read() throws Exception;

        /** Sets them; the sizes in KB. */
        void set(long globalBufferCount, long globalBufferSizeKb, long threadBufferSizeKb, long memorySizeKb) throws Exception;
    }

    private final Sizes sizes;

    private JfrMemory(Sizes sizes) {
        this.sizes = sizes;
    }

    /** Small buffers for the few events of a pause observer (see the class comment), set through {@code JFR.configure}. */
    public static JfrMemory small() {
        return new JfrMemory(null);
    }

    /** Small buffers, read and set through {@code sizes}. */
    public static JfrMemory small(Sizes sizes) {
        return new JfrMemory(java.util.Objects.requireNonNull(sizes, "sizes"));
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
                configure(sizes == null ? new DiagnosticCommand() : sizes, result);
            } catch (Throwable t) {
                result.clear();
                result.put("state", "failed");
                result.put("reason", t.toString());
                ObserverLog.once("jfr-memory", "pause observer: JFR's buffers could not be sized, JFR starts with the JDK's sizes (" + t + ")", null);
            }
            status = result;
        }
    }

    private static void configure(Sizes sizes, Map<String, Object> result) throws Exception {
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
        Map<String, Long> before = checked(sizes.read());
        if (before.get("Global buffer count") != DEFAULT_GLOBAL_BUFFER_COUNT
                || before.get("Global buffer size") != DEFAULT_GLOBAL_BUFFER_SIZE_KB
                || before.get("Thread buffer size") != DEFAULT_THREAD_BUFFER_SIZE_KB
                || before.get("Memory size") != DEFAULT_MEMORY_SIZE_KB) {
            left(result, "JFR's sizes had been set before (JFR.configure)");
            put(result, before);
            return;
        }
        sizes.set(SMALL_GLOBAL_BUFFER_COUNT, SMALL_GLOBAL_BUFFER_SIZE_KB, SMALL_THREAD_BUFFER_SIZE_KB,
                (long) SMALL_GLOBAL_BUFFER_COUNT * SMALL_GLOBAL_BUFFER_SIZE_KB);
        result.put("state", "set");
        put(result, checked(sizes.read()));
    }

    /** The {@code JFR.configure} diagnostic command, through the platform MBean server. */
    private static final class DiagnosticCommand implements Sizes {
        /** Made at the first read: the platform MBean server loads some 480 classes in a service that had none. */
        private MBeanServer server;

        @Override
        public Map<String, Long> read() throws Exception {
            return sizes(jfrConfigure());
        }

        @Override
        public void set(long globalBufferCount, long globalBufferSizeKb, long threadBufferSizeKb, long memorySizeKb) throws Exception {
            jfrConfigure("globalbuffercount=" + globalBufferCount, "globalbuffersize=" + globalBufferSizeKb + "k",
                    "thread_buffer_size=" + threadBufferSizeKb + "k", "memorysize=" + memorySizeKb + "k");
        }

        private String jfrConfigure(String... arguments) throws Exception {
            if (server == null) {
                server = ManagementFactory.getPlatformMBeanServer();
            }
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            Object answer = server.invoke(name, "jfrConfigure", new Object[]{arguments}, new String[]{String[].class.getName()});
            return String.valueOf(answer);
        }
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
        for (String key : KEYS) {
            if (!sizes.containsKey(key)) {
                throw new IllegalStateException("JFR.configure did not give its " + key.toLowerCase(Locale.ROOT) + ": " + configuration);
            }
        }
        return sizes;
    }

    private static Map<String, Long> checked(Map<String, Long> sizes) {
        for (String key : KEYS) {
            if (sizes == null || sizes.get(key) == null) {
                throw new IllegalStateException("JFR's " + key.toLowerCase(Locale.ROOT) + " could not be read: " + sizes);
            }
        }
        return sizes;
    }
}
