package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What each part of the pause observer costs by itself ({@code stall-service/bench/observer-parts.sh},
 * docs/benchmarks.md): in an otherwise idle JVM it starts the observer with the parts a configuration names,
 * lets WARMUP seconds pass (the JFR stream's start is not its steady cost), then over SECONDS measures the
 * process's CPU time ({@code OperatingSystemMXBean#getProcessCpuTime}: the observer's threads, JFR's own,
 * the JIT and GC they cause), the CPU time of each observer thread ({@code ThreadMXBean}), and the voluntary
 * context switches of the whole process ({@code /proc/self/task/N/status}: each is a thread going to sleep,
 * so about one per wake-up). Prints one line: {@code CONFIG process_us_per_s thread=us_per_s... switches_per_s}.
 *
 * <p>Configurations: {@code none} (nothing started), {@code jfr} (the stream, its clock samples once an
 * hour), {@code jfr+syncMS} (the stream and a thread committing the samples every MS ms),
 * {@code sleeperMS} (the sleeper alone, parking MS ms, no JFR), {@code sleeperMS+jfr+syncMS} (both sources,
 * the sleeper committing the samples).
 *
 * <p>With {@code -Dloadsmith.bench.busy=true} a thread spins beside the observer from the start (the script
 * pins the JVM to one CPU): what each part costs on a busy server's CPU, where a wake-up preempts a thread
 * and finds its caches cold. The process's CPU then includes the spinning thread; read the threads' column.
 */
public final class ObserverPartsBench {

    private static final long MS = 1_000_000L;

    private ObserverPartsBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: ObserverPartsBench CONFIG WARMUP_SECONDS SECONDS");
            System.exit(2);
        }
        String config = args[0];
        long warmupSeconds = Long.parseLong(args[1]);
        long seconds = Long.parseLong(args[2]);
        if (Boolean.getBoolean("loadsmith.bench.busy")) {
            Thread spinner = new Thread(ObserverPartsBench::spin, "bench-busy");
            spinner.setDaemon(true);
            spinner.start();
        }
        PauseObserver observer = start(config);
        Thread.sleep(warmupSeconds * 1000);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> threadsBefore = observerThreadCpu(threads);
        long switchesBefore = voluntarySwitches();
        long cpuBefore = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000);
        long elapsed = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long switches = voluntarySwitches() - switchesBefore;
        Map<String, Long> threadsAfter = observerThreadCpu(threads);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %.0f", config, cpu / 1e3 / (elapsed / 1e9)));
        threadsAfter.forEach((name, after) -> line.append(String.format(Locale.ROOT, " %s=%.0f", name,
                (after - threadsBefore.getOrDefault(name, 0L)) / 1e3 / (elapsed / 1e9))));
        line.append(String.format(Locale.ROOT, " %.0f", switches / (elapsed / 1e9)));
        System.out.println(line);
        if (observer != null) {
            observer.close();
        }
    }

    private static volatile long spun;

    /** Keeps a CPU busy, as a server's request threads would. */
    private static void spin() {
        long x = 0;
        while (true) {
            x += System.nanoTime();
            spun = x;
        }
    }

    private static PauseObserver start(String config) {
        Clock clock = Clock.system();
        if (config.equals("none")) {
            return null;
        }
        if (config.equals("jfr")) {
            return PauseObserver.started(clock, false, true, 0, 3_600_000 * MS);
        }
        if (config.matches("jfr\\+sync\\d+ms")) {
            return PauseObserver.started(clock, false, true, 0, millis(config, "sync") * MS);
        }
        if (config.matches("sleeper\\d+ms")) {
            return PauseObserver.started(clock, true, false, millis(config, "sleeper") * MS, 3_600_000 * MS);
        }
        if (config.matches("sleeper\\d+ms\\+jfr\\+sync\\d+ms")) {
            return PauseObserver.started(clock, true, true, millis(config, "sleeper") * MS, millis(config, "sync") * MS);
        }
        System.err.println("unknown configuration " + config + " (none, jfr, jfr+syncMSms, sleeperMSms, sleeperMSms+jfr+syncMSms)");
        System.exit(2);
        return null;
    }

    /** The number of ms after {@code part} in {@code config}: {@code millis("sleeper1ms+jfr", "sleeper")} is 1. */
    private static long millis(String config, String part) {
        int from = config.indexOf(part) + part.length();
        return Long.parseLong(config.substring(from, config.indexOf("ms", from)));
    }

    /** CPU time of each observer thread and JFR's own, by name. */
    private static Map<String, Long> observerThreadCpu(ThreadMXBean threads) {
        Map<String, Long> cpu = new TreeMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            String name = thread.getName();
            if (name.startsWith("loadsmith-pause") || name.startsWith("JFR")) {
                long nanos = threads.getThreadCpuTime(thread.getId());
                if (nanos >= 0) {
                    cpu.merge(name.replace(' ', '_'), nanos, Long::sum);
                }
            }
        }
        return cpu;
    }

    private static long voluntarySwitches() throws IOException {
        long total = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    total += voluntarySwitches(task);
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return total;
    }

    /** A thread's voluntary context switches, from {@code /proc/self/task/TID/status}: about one per wake-up. */
    static long voluntarySwitches(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        throw new IOException("no voluntary_ctxt_switches in " + task.resolve("status"));
    }
}
