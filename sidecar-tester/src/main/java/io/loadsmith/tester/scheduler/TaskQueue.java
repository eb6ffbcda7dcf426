package io.loadsmith.tester.scheduler;

import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The queue of a scheduler's tasks: in the order of their moments, ties in the order they were added. The
 * scheduler's own thread {@link #add}s and {@link #poll}s; any other thread {@link #post}s through a
 * lock-free inbox (one compare-and-set) that the owner moves into the queue with {@link #drainInbox()}, in
 * the order posted. {@link SystemScheduler}, {@link VirtualScheduler} and the default transport's event
 * loop keep their tasks here.
 *
 * <p>A task that is a {@link Task} is queued as itself; any other {@link Runnable} is wrapped in one (an
 * object per add). A {@code Task} may be queued again once it has been polled, never twice at once.
 */
public final class TaskQueue {

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private final AtomicReference<Task> inbox = new AtomicReference<>();
    private long sequence;

    /** Owner thread: adds task at nanos, after the tasks other threads posted before. */
    public void add(long nanos, Runnable task) {
        drainInbox();
        Task entry = Task.of(nanos, task);
        entry.seq = sequence++;
        queue.add(entry);
    }

    /** Any thread: adds task at nanos through the inbox. */
    public void post(long nanos, Runnable task) {
        Task entry = Task.of(nanos, task);
        Task head;
        do {
            head = inbox.get();
            entry.nextInInbox = head;
        } while (!inbox.compareAndSet(head, entry));
    }

    /** Whether other threads posted tasks not yet drained (any thread). */
    public boolean hasPosted() {
        return inbox.get() != null;
    }

    /** Owner thread: moves every posted task into the queue, in the order they were posted. */
    public void drainInbox() {
        if (inbox.get() == null) {
            return;
        }
        Task posted = inbox.getAndSet(null);
        Task reversed = null;
        while (posted != null) {
            Task next = posted.nextInInbox;
            posted.nextInInbox = reversed;
            reversed = posted;
            posted = next;
        }
        while (reversed != null) {
            Task next = reversed.nextInInbox;
            reversed.nextInInbox = null;
            reversed.seq = sequence++;
            queue.add(reversed);
            reversed = next;
        }
    }

    /** The earliest queued task (posted ones not included until drained), or null. */
    public Task peek() {
        return queue.peek();
    }

    /** Removes and returns the earliest queued task, or null. */
    public Task poll() {
        return queue.poll();
    }

    /** Tasks queued (posted ones not included until drained). */
    public int size() {
        return queue.size();
    }

    /** A queued task and its moment; extend it to be queued without a wrapper. */
    public abstract static class Task implements Runnable, Comparable<Task> {
        private long nanos;
        private long seq;
        private Task nextInInbox;

        /** The moment the task was queued for, ns on the scheduler's clock. */
        public final long nanos() {
            return nanos;
        }

        static Task of(long nanos, Runnable task) {
            Task entry = task instanceof Task own ? own : new Wrapped(task);
            entry.nanos = nanos;
            return entry;
        }

        @Override
        public final int compareTo(Task other) {
            int byTime = Long.compare(nanos, other.nanos);
            return byTime != 0 ? byTime : Long.compare(seq, other.seq);
        }
    }

    private static final class Wrapped extends Task {
        private final Runnable task;

        Wrapped(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }
}
