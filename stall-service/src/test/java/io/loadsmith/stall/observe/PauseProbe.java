package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A child JVM that observes its own pauses and makes some on request, one command a line on standard
 * input, one answer a line on standard output: {@code gc} (a full collection of a live set of a few hundred
 * MB), {@code dump} (a thread dump), {@code ttsp} (a thread dump asked for while another thread runs a
 * counted loop without safepoint polls), each answered {@code BRACKET beforeNanos afterNanos}; {@code ping}
 * (answered {@code pong}); {@code pauses} (every window, one {@code PAUSE ...} line each, then {@code END}).
 * Exits when its standard input closes.
 */
public final class PauseProbe {

    private static final int LIVE_SET_MB = 300;
    /** About half a second of loop on the build box. */
    private static final int LOOP_ITERATIONS = 400_000_000;
    private static byte[][] liveSet;
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        Clock clock = Clock.system();
        PauseObserver observer = PauseObserver.start(clock);
        dump(); // loads what a thread dump needs, so that a bracket around the next one holds the dump only
        System.out.println("READY " + ProcessHandle.current().pid() + " jfr=" + observer.jfrStatus());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command;
        while ((command = in.readLine()) != null) {
            switch (command.strip()) {
                case "gc" -> bracket(clock, PauseProbe::fullGc, PauseProbe::makeLiveSet);
                case "dump" -> bracket(clock, PauseProbe::dump, () -> { });
                case "ttsp" -> timeToSafepoint(clock);
                case "ping" -> System.out.println("pong");
                case "pauses" -> {
                    for (PauseWindow w : observer.pauses(0).pauses()) {
                        System.out.println("PAUSE " + w.index() + " " + w.source().wireName() + " " + w.startNanos() + " "
                                + w.endNanos() + " " + w.timeToSafepointNanos() + " " + w.label());
                    }
                    System.out.println("END");
                }
                default -> System.out.println("unknown command " + command);
            }
            System.out.flush();
        }
    }

    private static void bracket(Clock clock, Runnable action, Runnable before) {
        before.run();
        long beforeNanos = clock.nanoTime();
        action.run();
        long afterNanos = clock.nanoTime();
        System.out.println("BRACKET " + beforeNanos + " " + afterNanos);
    }

    private static void makeLiveSet() {
        if (liveSet == null) {
            liveSet = new byte[LIVE_SET_MB][];
            for (int i = 0; i < LIVE_SET_MB; i++) {
                liveSet[i] = new byte[1 << 20];
            }
        }
    }

    private static void fullGc() {
        System.gc();
    }

    private static void dump() {
        ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
    }

    /** A counted int loop: C2 compiles it without safepoint polls (with -XX:-UseCountedLoopSafepoints). */
    static long spin(int iterations, long seed) {
        long x = seed;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + i;
        }
        return x;
    }

    private static void timeToSafepoint(Clock clock) throws InterruptedException {
        for (int i = 0; i < 20_000; i++) {
            sink += spin(1_000, i); // compiled by C2 before the long run
        }
        CountDownLatch started = new CountDownLatch(1);
        Thread looper = new Thread(() -> {
            started.countDown();
            sink += spin(LOOP_ITERATIONS, sink);
        }, "probe-loop");
        looper.start();
        started.await();
        Thread.sleep(20);
        bracket(clock, PauseProbe::dump, () -> { });
        looper.join();
    }
}
