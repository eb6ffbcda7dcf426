package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.scheduler.TaskQueue;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoRegistration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loop's turns on a manual clock, with a fake I/O handler in place of epoll: a wait advances the clock
 * to its deadline plus a wake-up lateness, a poll by 1 µs, each task by its own cost. Nothing real-time.
 */
class ScheduledIoTest {

    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    private long now;
    private final TaskQueue tasks = new TaskQueue();
    private final FakeIo io = new FakeIo(30 * US);

    /** Sends (tasks) at a fixed gap, each costing taskNanos of the loop's time; returns each one's lateness. */
    private long[] constant(ScheduledIo loop, int count, long gapNanos, long taskNanos) {
        long[] lateness = new long[count];
        List<Integer> turnOfTask = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            long moment = MS + i * gapNanos;
            tasks.add(moment, () -> {
                lateness[index] = now - moment;
                turnOfTask.add(io.turns);
                now += taskNanos;
            });
        }
        for (int turn = 0; tasks.size() > 0; turn++) {
            assertThat(turn).as("turns to run %d tasks", count).isLessThan(1_000_000);
            loop.run(NettyContext.IDLE);
        }
        io.turnOfTask = turnOfTask;
        return lateness;
    }

    @Test
    void a_burst_of_due_tasks_yields_to_io_after_at_most_max_burst_tasks() {
        ScheduledIo loop = new ScheduledIo(tasks, () -> now, 50 * US).over(io);
        now = 50 * MS; // every one of 1,000 tasks is already due: one long burst unless it yields
        constant(loop, 1_000, 10 * US, 1 * US);

        int[] perTurn = new int[io.turns + 1];
        io.turnOfTask.forEach(turn -> perTurn[turn]++);
        assertThat(io.turns).isGreaterThanOrEqualTo(1_000 / ScheduledIo.MAX_BURST);
        for (int count : perTurn) {
            assertThat(count).isLessThanOrEqualTo(ScheduledIo.MAX_BURST);
        }
    }

    @Test
    void sends_100_us_apart_poll_io_between_every_two_and_leave_within_the_precision() {
        ScheduledIo loop = new ScheduledIo(tasks, () -> now, 50 * US).over(io);
        long[] lateness = constant(loop, 1_000, 100 * US, 5 * US);

        for (int i = 1; i < io.turnOfTask.size(); i++) {
            assertThat(io.turnOfTask.get(i)).as("turn of task %d", i).isGreaterThan(io.turnOfTask.get(i - 1));
        }
        for (long late : lateness) {
            assertThat(late).isBetween(0L, 50 * US);
        }
    }

    @Test
    void a_coarse_precision_wakes_once_per_window_and_never_runs_a_task_early() {
        ScheduledIo loop = new ScheduledIo(tasks, () -> now, MS).over(io);
        long[] lateness = constant(loop, 1_000, 100 * US, 5 * US);

        for (long late : lateness) {
            assertThat(late).isBetween(0L, MS);
        }
        // 100 ms of sends: about one wait per millisecond window, not one per send
        assertThat(io.waits).isBetween(50, 200);
        assertThat(io.polls).isLessThan(200);
    }

    @Test
    void with_nothing_queued_the_wait_is_nettys_own() {
        ScheduledIo loop = new ScheduledIo(tasks, () -> now, 50 * US).over(io);
        loop.run(NettyContext.IDLE);
        assertThat(io.lastDelay).isEqualTo(NettyContext.IDLE.delayNanos(now));
    }

    /** Netty's side of the context: no task of its own, its purge timer a second away. */
    private enum NettyContext implements IoHandlerContext {
        IDLE;

        @Override
        public boolean canBlock() {
            return true;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return 1_000 * MS;
        }

        @Override
        public long deadlineNanos() {
            return -1;
        }
    }

    /** Waits by moving the clock: to the deadline plus its lateness, or 1 µs for a poll. */
    private final class FakeIo implements IoHandler {
        private final long wakeLatenessNanos;
        int turns;
        int waits;
        int polls;
        long lastDelay;
        List<Integer> turnOfTask = List.of();

        FakeIo(long wakeLatenessNanos) {
            this.wakeLatenessNanos = wakeLatenessNanos;
        }

        @Override
        public int run(IoHandlerContext context) {
            turns++;
            if (context.canBlock()) {
                waits++;
                lastDelay = context.delayNanos(now);
                now += lastDelay + wakeLatenessNanos;
            } else {
                polls++;
                now += US;
            }
            return 0;
        }

        @Override
        public IoRegistration register(IoHandle handle) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void wakeup() {
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return false;
        }
    }
}
