package io.loadsmith.tester.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TaskQueueTest {

    private final List<String> ran = new ArrayList<>();

    private Runnable note(String name) {
        return () -> ran.add(name);
    }

    private void runAll(TaskQueue queue) {
        queue.drainInbox();
        TaskQueue.Task task;
        while ((task = queue.poll()) != null) {
            task.run();
        }
    }

    @Test
    void tasks_run_by_moment_and_ties_in_the_order_added() {
        TaskQueue queue = new TaskQueue();
        queue.add(20, note("b"));
        queue.add(10, note("a1"));
        queue.add(10, note("a2"));
        runAll(queue);
        assertThat(ran).containsExactly("a1", "a2", "b");
    }

    @Test
    void posted_tasks_keep_the_order_posted_and_come_before_a_later_add_at_the_same_moment() {
        TaskQueue queue = new TaskQueue();
        queue.post(5, note("p1"));
        queue.post(5, note("p2"));
        assertThat(queue.hasPosted()).isTrue();
        queue.add(5, note("owner"));
        assertThat(queue.hasPosted()).isFalse();
        runAll(queue);
        assertThat(ran).containsExactly("p1", "p2", "owner");
    }

    @Test
    void a_task_subclass_is_queued_as_itself_and_may_be_queued_again_after_it_ran() {
        TaskQueue queue = new TaskQueue();
        TaskQueue.Task task = new TaskQueue.Task() {
            @Override
            public void run() {
                ran.add("at " + nanos());
            }
        };
        queue.add(7, task);
        assertThat(queue.peek()).isSameAs(task);
        runAll(queue);
        queue.post(9, task);
        runAll(queue);
        assertThat(ran).containsExactly("at 7", "at 9");
    }
}
