package io.loadsmith.tester.simulate;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A simulated service on a {@link VirtualScheduler}: a FIFO queue in front of k servers, a service-time
 * model, and stall windows, with no network. A request is "sent" the moment the engine hands it over; it
 * starts service when it reaches the head of the queue and a server is free, and ends one service time
 * later. Stall windows act like the real gate, which sits where a request enters the server and again
 * before its response is committed: a request that would start service inside a window starts at the
 * window's end, and one whose service would end inside a window ends at the window's end (holding its
 * server). Windows are [start, end) on the scheduler's clock.
 *
 * <p>Because the queue is FIFO and service times are drawn in arrival order, each request's start and
 * end are computed when it arrives (the Kiefer–Wolfowitz recursion: the earliest free server takes the
 * next request); the only event per request is its completion. Single-threaded, like the scheduler.
 */
public final class SimulatedServer implements Transport {

    private final VirtualScheduler scheduler;
    private final ServiceTime.Sampler serviceTime;
    private final long[] freeAtNanos;
    private long[] windowStartNanos = new long[0];
    private long[] windowEndNanos = new long[0];
    private final Pending inFlight = new Pending(null);
    private long held;

    /**
     * @param servers     k, the number of requests served at once (>= 1)
     * @param serviceTime the service-time model
     * @param seed        seed of the service-time draws
     */
    public SimulatedServer(VirtualScheduler scheduler, int servers, ServiceTime serviceTime, long seed) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be >= 1 (got " + servers + ")");
        }
        this.scheduler = scheduler;
        this.serviceTime = serviceTime.sampler(seed);
        this.freeAtNanos = new long[servers];
        Arrays.fill(freeAtNanos, Long.MIN_VALUE);
        inFlight.prev = inFlight;
        inFlight.next = inFlight;
    }

    /** Adds the windows of a stall plan (the real {@link StallPlan}) armed at armedAtNanos. */
    public void arm(StallPlan plan, long armedAtNanos) {
        List<long[]> windows = new ArrayList<>();
        for (PlannedStall stall : plan.stalls()) {
            windows.add(new long[] {armedAtNanos + stall.offsetNanos(), armedAtNanos + stall.endOffsetNanos()});
        }
        addWindows(windows);
    }

    /** Drops the windows that start at or after {@code nanos}: an agent armed again replaces its pending plan. */
    public void dropWindowsFrom(long nanos) {
        int kept = 0;
        while (kept < windowStartNanos.length && windowStartNanos[kept] < nanos) {
            kept++;
        }
        windowStartNanos = Arrays.copyOf(windowStartNanos, kept);
        windowEndNanos = Arrays.copyOf(windowEndNanos, kept);
    }

    /** Adds one window [startNanos, endNanos). */
    public void addWindow(long startNanos, long endNanos) {
        if (endNanos <= startNanos) {
            throw new IllegalArgumentException("a stall window must end after it starts");
        }
        addWindows(List.of(new long[] {startNanos, endNanos}));
    }

    private void addWindows(List<long[]> added) {
        List<long[]> all = new ArrayList<>(added);
        for (int i = 0; i < windowStartNanos.length; i++) {
            all.add(new long[] {windowStartNanos[i], windowEndNanos[i]});
        }
        all.sort((a, b) -> Long.compare(a[0], b[0]));
        windowStartNanos = new long[all.size()];
        windowEndNanos = new long[all.size()];
        for (int i = 0; i < all.size(); i++) {
            windowStartNanos[i] = all.get(i)[0];
            windowEndNanos[i] = all.get(i)[1];
        }
    }

    /** t, or the end of the window t falls in (repeatedly, for windows that touch). */
    long gate(long t) {
        while (true) {
            int i = Arrays.binarySearch(windowStartNanos, t);
            int candidate = i >= 0 ? i : -i - 2;
            if (candidate < 0 || t >= windowEndNanos[candidate]) {
                return t;
            }
            t = windowEndNanos[candidate];
        }
    }

    @Override
    public void send(RequestSpec request, Exchange exchange) {
        long now = scheduler.nanoTime();
        exchange.sent(now);
        int server = 0;
        for (int i = 1; i < freeAtNanos.length; i++) {
            if (freeAtNanos[i] < freeAtNanos[server]) {
                server = i;
            }
        }
        long reached = Math.max(now, freeAtNanos[server]);
        long start = gate(reached);
        long done = start + serviceTime.nextNanos();
        long end = gate(done);
        if (start != reached || end != done) {
            held++;
        }
        freeAtNanos[server] = end;
        Pending pending = new Pending(exchange);
        pending.check = request.check();
        pending.linkAfter(inFlight);
        scheduler.at(end, pending);
    }

    @Override
    public void cancelAll() {
        long now = scheduler.nanoTime();
        for (Pending p = inFlight.next; p != inFlight; p = inFlight.next) {
            p.unlink();
            p.cancelled = true;
            p.exchange.completed(now, 0, Outcome.CANCELLED, "cancelled at the end of the grace");
        }
    }

    /** Requests the stall windows held (at entry or on the response path). */
    public long held() {
        return held;
    }

    private final class Pending implements Runnable {
        final Exchange exchange;
        io.loadsmith.tester.transport.ResponseCheck check;
        boolean cancelled;
        Pending prev;
        Pending next;

        Pending(Exchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public void run() {
            if (cancelled) {
                return;
            }
            unlink();
            String failed = check == null ? null : check.check(200, new byte[0]);
            exchange.completed(scheduler.nanoTime(), 200, failed == null ? Outcome.OK : Outcome.CHECK_FAILED, failed);
        }

        void linkAfter(Pending head) {
            next = head.next;
            prev = head;
            head.next.prev = this;
            head.next = this;
        }

        void unlink() {
            prev.next = next;
            next.prev = prev;
        }
    }
}
