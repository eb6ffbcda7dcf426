package io.loadsmith.tester.client.netty;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.scheduler.TaskQueue;
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
 * <p><b>Waiting.</b> The tasks run inside the loop's I/O handler ({@link ScheduledIo}): each turn of the
 * loop waits for I/O or for the next task's wake-up in {@code epoll_wait}, handles the I/O that is ready,
 * then runs a bounded burst of the tasks that are due; near a task's moment the wait is a poll of I/O, not
 * a spin on the clock. On epoll the wake-up has a nanosecond deadline ({@code epoll_pwait2}'s timeout, or
 * a {@code timerfd}); the kernel returns from it late by the thread's timer slack (the loop sets its own to
 * 1 ns, {@link TimerSlack}) and by the wake-up itself, which the loop learns. On NIO (no native epoll)
 * timers have millisecond precision. {@link #precision(long)} sets how late a task may run.
 *
 * <p>A task that throws is reported to the thread's uncaught-exception handler and the loop goes on.
 * {@link #close()} stops the loop (and every connection on it).
 */
final class LoopScheduler implements Scheduler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoopScheduler.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final TaskQueue tasks = new TaskQueue();
    private final Clock clock;
    private final ScheduledIo io;
    private final MultiThreadIoEventLoopGroup group;
    private final EventLoop loop;
    private final Class<? extends SocketChannel> channelType;
    private final AtomicBoolean drainPosted = new AtomicBoolean();
    private final Runnable drainTask = this::onDrain;

    private LoopScheduler(IoHandlerFactory handlers, Class<? extends SocketChannel> channelType, Clock clock) {
        this.clock = clock;
        this.channelType = channelType;
        this.io = new ScheduledIo(tasks, clock, Scheduler.DEFAULT_PRECISION_NANOS);
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("loadsmith-loop", true),
                executor -> io.over(handlers.newHandler(executor)));
        this.loop = (EventLoop) group.next();
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
        LoopScheduler scheduler = new LoopScheduler(handlers, channelType, Clock.system());
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
            tasks.add(nanos, task); // the loop's next turn plans its wait with it
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

    @Override
    public void precision(long nanos) {
        io.precision(nanos);
    }

    /** Wakes the loop for tasks posted from other threads; its next turn drains them (and plans with them). */
    private void onDrain() {
        drainPosted.set(false);
        tasks.drainInbox();
    }

    /** Stops the loop; tasks not yet run are discarded, connections closed. */
    @Override
    public void close() {
        io.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
