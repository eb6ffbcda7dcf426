package io.loadsmith.tester.transport.netty;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.engine.Scheduler;
import io.loadsmith.tester.engine.TaskQueue;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Scheduler} whose thread is one Netty event loop: the loop that also owns the transport's
 * connections, so a task and an I/O callback never cross a thread.
 *
 * <p><b>Order.</b> Tasks run on the loop's thread in the order of their moments, ties in the order they
 * were added. A task added on the loop's thread goes straight into the queue (after the tasks other
 * threads posted before it); a task from another thread goes through a lock-free inbox that the loop
 * drains, woken by one task on Netty's queue per batch of posts.
 *
 * <p><b>Waiting.</b> Nothing is done between tasks but waiting in {@code epoll_wait} (I/O and timers):
 * no spin between sends. For a task in the future the loop arms one Netty scheduled wake-up, which on
 * epoll has a nanosecond deadline ({@code epoll_pwait2}'s timeout, or a {@code timerfd}). The kernel
 * returns from such a wait late by the thread's timer slack (50 µs by default on Linux; the loop sets its
 * own to 1 ns, {@link TimerSlack}) and by the wake-up itself; the loop learns how late
 * (a low estimate: it follows a smaller lateness at once and a larger one by 1/8 of the gap), wakes that
 * much before the task's moment, at most {@value #MAX_LEAD_NANOS} ns before, and spins only the rest. A
 * wake-up more than {@value #COARSE_NANOS} ns ahead is first armed {@value #COARSE_MARGIN_NANOS} ns
 * early (Netty may wait that long with a millisecond timeout) and re-armed from there.
 * On NIO (no native epoll) timers have millisecond precision.
 *
 * <p>A task that throws is reported to the thread's uncaught-exception handler and the loop goes on.
 * {@link #close()} stops the loop (and every connection on it).
 */
final class LoopScheduler implements Scheduler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoopScheduler.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    /** The most the loop wakes (and spins) before a task's moment. */
    static final long MAX_LEAD_NANOS = 100_000;
    /** A wake-up further ahead than this is first armed coarse. */
    static final long COARSE_NANOS = 5_000_000;
    /** How much earlier a coarse wake-up is armed. */
    static final long COARSE_MARGIN_NANOS = 2_000_000;
    /** The lateness assumed before any wake-up was measured: Linux's default timer slack. */
    private static final long INITIAL_LATENESS_NANOS = 50_000;

    private final MultiThreadIoEventLoopGroup group;
    private final EventLoop loop;
    private final Class<? extends SocketChannel> channelType;
    private final Clock clock;
    private final TaskQueue tasks = new TaskQueue();
    private final AtomicBoolean drainPosted = new AtomicBoolean();
    private final Runnable drainTask = this::onDrain;
    private final Runnable runTask = this::onRun;
    private final Runnable wakeTask = this::onWake;
    private volatile boolean closed;
    // loop thread only
    private boolean runPosted;
    private ScheduledFuture<?> armed;
    private long armedAtNanos;
    private boolean armedFine;
    private long latenessNanos = INITIAL_LATENESS_NANOS;

    private LoopScheduler(MultiThreadIoEventLoopGroup group, Class<? extends SocketChannel> channelType, Clock clock) {
        this.group = group;
        this.loop = (EventLoop) group.next();
        this.channelType = channelType;
        this.clock = clock;
    }

    /** Starts one event loop (native epoll where available, else NIO with a warning) on the system clock. */
    static LoopScheduler start() {
        return start(true);
    }

    /** {@link #start()}; {@code nativeEpoll} false forces Java NIO (for tests of the fallback). */
    static LoopScheduler start(boolean nativeEpoll) {
        IoHandlerFactory handlers;
        Class<? extends SocketChannel> channelType;
        if (!nativeEpoll) {
            handlers = NioIoHandler.newFactory();
            channelType = NioSocketChannel.class;
        } else if (Epoll.isAvailable()) {
            handlers = EpollIoHandler.newFactory();
            channelType = EpollSocketChannel.class;
        } else {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("native epoll is not available here ({}): the HTTP transport runs on Java NIO, whose "
                        + "timers wake at millisecond precision", String.valueOf(Epoll.unavailabilityCause()));
            }
            handlers = NioIoHandler.newFactory();
            channelType = NioSocketChannel.class;
        }
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("loadsmith-loop", true), handlers);
        LoopScheduler scheduler = new LoopScheduler(group, channelType, Clock.system());
        scheduler.loop.execute(TimerSlack::minimiseForThisThread);
        return scheduler;
    }

    EventLoop eventLoop() {
        return loop;
    }

    Class<? extends SocketChannel> channelType() {
        return channelType;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public boolean inThread() {
        return loop.inEventLoop();
    }

    @Override
    public void at(long nanos, Runnable task) {
        if (loop.inEventLoop()) {
            tasks.add(nanos, task);
            plan();
            return;
        }
        tasks.post(nanos, task);
        if (!drainPosted.get() && drainPosted.compareAndSet(false, true)) {
            try {
                loop.execute(drainTask);
            } catch (RejectedExecutionException closing) {
                // the loop is closed: its tasks are discarded, as close() says
            }
        }
    }

    /** How long before a task's moment the loop wakes for it (it spins from there), ns. */
    long leadNanos() {
        return Math.min(MAX_LEAD_NANOS, latenessNanos);
    }

    private void onDrain() {
        drainPosted.set(false);
        tasks.drainInbox();
        plan();
    }

    private void onRun() {
        runPosted = false;
        runDue();
    }

    private void onWake() {
        armed = null;
        if (armedFine) {
            learn(clock.nanoTime() - armedAtNanos);
        }
        runDue();
    }

    /** Makes sure the loop comes back for the earliest task: now (a posted run) or by a timed wake-up. */
    private void plan() {
        TaskQueue.Task head = tasks.peek();
        if (head == null || runPosted || closed) {
            return;
        }
        long now = clock.nanoTime();
        long wakeAt = head.nanos() - leadNanos();
        if (wakeAt - now <= 0) {
            runPosted = true;
            loop.execute(runTask);
            return;
        }
        boolean fine = wakeAt - now <= COARSE_NANOS;
        long target = fine ? wakeAt : wakeAt - COARSE_MARGIN_NANOS;
        if (armed != null) {
            if (armedAtNanos - target <= 0) {
                return; // an earlier wake-up is armed: it plans again
            }
            armed.cancel(false);
        }
        armedAtNanos = target;
        armedFine = fine;
        armed = loop.schedule(wakeTask, target - now, TimeUnit.NANOSECONDS);
    }

    /** Runs, in order, every task that is due, spinning the last stretch before one that nearly is. */
    private void runDue() {
        tasks.drainInbox();
        TaskQueue.Task head;
        while (!closed && (head = tasks.peek()) != null) {
            long remaining = head.nanos() - clock.nanoTime();
            if (remaining > 0) {
                if (remaining > leadNanos()) {
                    plan();
                    return;
                }
                while (clock.nanoTime() - head.nanos() < 0) {
                    Thread.onSpinWait();
                }
                tasks.drainInbox();
                continue; // a posted task may be earlier
            }
            tasks.poll();
            try {
                head.run();
            } catch (RuntimeException | Error e) {
                Thread thread = Thread.currentThread();
                thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
            }
            tasks.drainInbox();
        }
    }

    /** A low estimate of how late a timed wake-up returns: down at once, up by 1/8 of the gap. */
    private void learn(long lateNanos) {
        if (lateNanos < 0) {
            return;
        }
        latenessNanos = lateNanos < latenessNanos ? lateNanos : latenessNanos + ((lateNanos - latenessNanos) >> 3);
    }

    /** Stops the loop; tasks not yet run are discarded, connections closed. */
    @Override
    public void close() {
        closed = true;
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
