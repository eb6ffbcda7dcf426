package io.loadsmith.tester.profile;

import java.lang.management.ManagementFactory;

/**
 * Pauses at known moments, for {@link GcLogReaderIT}: allocates for {@code args[0]} ms (default 400) in a
 * small heap (collections close together, some in the same millisecond), then calls System.gc() three times
 * 150 ms apart, printing the JVM's uptime (ms, from its start like the log's uptime) just before and just
 * after each call: {@code gc BEFORE_MS AFTER_MS}.
 */
public final class GcPausesApp {

    public static void main(String[] args) throws InterruptedException {
        long churnNanos = (args.length > 0 ? Long.parseLong(args[0]) : 400) * 1_000_000L;
        Object[] keep = new Object[4096];
        long endNanos = System.nanoTime() + churnNanos;
        for (int i = 0; System.nanoTime() < endNanos; i++) {
            keep[i & 4095] = new byte[1024 + (i & 4095)];
        }
        for (int i = 0; i < 3; i++) {
            Thread.sleep(150);
            long before = ManagementFactory.getRuntimeMXBean().getUptime();
            System.gc();
            long after = ManagementFactory.getRuntimeMXBean().getUptime();
            System.out.println("gc " + before + " " + after);
        }
        System.out.println(keep.length);
    }
}
