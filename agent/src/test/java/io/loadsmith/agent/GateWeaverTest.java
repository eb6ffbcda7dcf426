package io.loadsmith.agent;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.gate.ReplicaHeader;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.gate.GateWindow;
import io.loadsmith.stall.plan.StallKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GateWeaverTest {

    /** Methods of the shapes a server's are: plain, with a handler of their own, throwing, a loop at offset 0. */
    public static class Sample {
        public int plain(int x) {
            Bodies.RUN.incrementAndGet();
            return x + 1;
        }

        public int guarded(int x) {
            try {
                if (x < 0) {
                    throw new IllegalArgumentException("negative");
                }
                return x;
            } catch (IllegalArgumentException e) {
                return -1;
            }
        }

        public int throwing(int x) {
            throw new IllegalStateException("boom " + x);
        }

        public int countDown(int n) {
            int steps = 0;
            do { // the first instruction is a branch target: the method's own frame at its start
                n--;
                steps++;
            } while (n > 0);
            return steps;
        }

        public static String respond(long id, double weight, Response response) {
            return id + "/" + weight + "/" + response.headers.size();
        }

        public void empty() {
        }
    }

    /** Bodies of {@link Sample#plain} run, in a class of its own: the woven copy of Sample shares it. */
    public static final class Bodies {
        public static final AtomicInteger RUN = new AtomicInteger();
    }

    /** A response as a servlet's: {@code setHeader} and {@code containsHeader}. */
    public static class Response {
        public final Map<String, String> headers = new HashMap<>();

        public void setHeader(String name, String value) {
            headers.put(name, value);
        }

        public boolean containsHeader(String name) {
            return headers.containsKey(name);
        }
    }

    private static final String SAMPLE = Sample.class.getName();
    private GateWindow window;

    @AfterEach
    void closeWindow() {
        if (window != null) {
            window.close();
        }
    }

    private static Object call(Object target, String method, Object... args) throws Throwable {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(method)) {
                try {
                    return m.invoke(m.getModifiers() == (java.lang.reflect.Modifier.PUBLIC | java.lang.reflect.Modifier.STATIC)
                            ? null : target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new NoSuchMethodException(method);
    }

    private static Object aroundEvery() throws Exception {
        Gate gate = Gate.around(SAMPLE, named("plain").or(named("guarded")).or(named("throwing"))
                .or(named("countDown")).or(named("respond")).or(named("empty")), "every method");
        return WovenClasses.woven(Sample.class, List.of(gate), false).getDeclaredConstructor().newInstance();
    }

    @Test
    void gated_methods_verify_and_behave_as_before_their_own_handlers_first() throws Throwable {
        Object sample = aroundEvery();
        assertThat(call(sample, "plain", 1)).isEqualTo(2);
        assertThat(call(sample, "guarded", 5)).isEqualTo(5);
        assertThat(call(sample, "guarded", -5)).as("the method's own handler catches first").isEqualTo(-1);
        assertThatThrownBy(() -> call(sample, "throwing", 7)).isInstanceOf(IllegalStateException.class)
                .hasMessage("boom 7");
        assertThat(call(sample, "countDown", 3)).isEqualTo(3);
        assertThat(call(sample, "respond", 4L, 0.5, new Response())).isEqualTo("4/0.5/0");
        assertThat(call(sample, "empty")).isNull();
    }

    @Test
    void an_entry_gate_holds_the_method_before_its_body_while_a_window_is_open() throws Throwable {
        Object sample = WovenClasses.woven(Sample.class, List.of(Gate.enter(SAMPLE, named("plain"), "plain(int)")),
                false).getDeclaredConstructor().newInstance();
        int before = Bodies.RUN.get();
        window = StallGate.global().open(Clock.system(), System.nanoTime() + Duration.ofMinutes(1).toNanos(),
                StallKind.BLOCK);
        Thread[] caller = new Thread[1];
        CompletableFuture<Object> result = CompletableFuture.supplyAsync(() -> {
            caller[0] = Thread.currentThread();
            try {
                return call(sample, "plain", 41);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> caller[0] != null
                && (caller[0].getState() == Thread.State.TIMED_WAITING || caller[0].getState() == Thread.State.WAITING));
        assertThat(result).isNotDone();
        assertThat(Bodies.RUN.get()).as("held before the body").isEqualTo(before);
        window.close();
        assertThat(result.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(42);
    }

    @Test
    void an_exit_gate_holds_the_method_after_its_body_also_when_it_throws() throws Throwable {
        Gate exitOnly = new Gate(SAMPLE, named("plain").or(named("throwing")), "plain, throwing", false, true, true,
                Gate.NO_RESPONSE);
        Object sample = WovenClasses.woven(Sample.class, List.of(exitOnly), false).getDeclaredConstructor().newInstance();
        int before = Bodies.RUN.get();
        window = StallGate.global().open(Clock.system(), System.nanoTime() + Duration.ofMinutes(1).toNanos(),
                StallKind.BLOCK);
        for (String method : new String[] {"plain", "throwing"}) {
            Thread[] caller = new Thread[1];
            CompletableFuture<String> ended = CompletableFuture.supplyAsync(() -> {
                caller[0] = Thread.currentThread();
                try {
                    return String.valueOf(call(sample, method, 1));
                } catch (Throwable t) {
                    return t.getClass().getSimpleName();
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> caller[0] != null
                    && (caller[0].getState() == Thread.State.TIMED_WAITING || caller[0].getState() == Thread.State.WAITING));
            assertThat(ended).as(method).isNotDone();
            if (method.equals("plain")) {
                assertThat(Bodies.RUN.get()).as("held after the body").isEqualTo(before + 1);
            }
            window.close();
            assertThat(ended.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo(method.equals("plain") ? "2" : "IllegalStateException");
            window = StallGate.global().open(Clock.system(), System.nanoTime() + Duration.ofMinutes(1).toNanos(),
                    StallKind.BLOCK);
        }
    }

    @Test
    void with_trace_header_the_entry_gate_puts_the_replica_header_on_the_response_argument() throws Throwable {
        Gate gate = Gate.enter(SAMPLE, named("respond"), "respond(long, double, Response)").withResponseArgument(2);
        Object sample = WovenClasses.woven(Sample.class, List.of(gate), true).getDeclaredConstructor().newInstance();
        Response response = new Response();
        assertThat(call(sample, "respond", 4L, 0.5, response)).isEqualTo("4/0.5/1");
        assertThat(response.headers.get(ReplicaHeader.NAME)).startsWith(ReplicaHeader.replica() + ";recv=");
    }

    @Test
    void the_slot_of_a_reference_argument_counts_this_and_wide_values() {
        assertThat(GateWeaver.referenceSlot(0, "(JDLjava/lang/Object;)V", 2)).isEqualTo(5);
        assertThat(GateWeaver.referenceSlot(net.bytebuddy.jar.asm.Opcodes.ACC_STATIC, "(JDLjava/lang/Object;)V", 2)).isEqualTo(4);
        assertThat(GateWeaver.referenceSlot(0, "(Ljava/lang/Object;[I)V", 1)).isEqualTo(2);
        assertThat(GateWeaver.referenceSlot(0, "(JI)V", 1)).as("not a reference").isEqualTo(-1);
        assertThat(GateWeaver.referenceSlot(0, "(J)V", Gate.NO_RESPONSE)).isEqualTo(-1);
    }

    @Test
    void constructors_and_classes_without_a_matching_method_are_left_as_they_are() throws Exception {
        byte[] classFile = WovenClasses.classFile(Sample.class);
        assertThat(GateWeaver.weave(classFile, List.of(Gate.enter(SAMPLE, named("<init>"), "<init>")), false)).isNull();
        assertThat(GateWeaver.weave(classFile, List.of(Gate.enter(SAMPLE, named("absent"), "absent")), false)).isNull();
    }
}
