package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Where the agent's freezer refuses before loading anything; the freeze itself is FreezeIT's, in a child JVM. */
class NativeFreezerTest {

    @Test
    void only_linux_on_x86_64_or_aarch64_can_freeze_and_the_others_say_why() {
        assertThat(NativeFreezer.staticRefusal("Linux", "amd64")).isNull();
        assertThat(NativeFreezer.staticRefusal("Linux", "aarch64")).isNull();
        assertThat(NativeFreezer.staticRefusal("Mac OS X", "aarch64"))
                .isEqualTo("freeze needs Linux (SIGSTOP and a CLOCK_MONOTONIC timer whose signal is SIGCONT); this is Mac OS X");
        assertThat(NativeFreezer.staticRefusal("Linux", "ppc64le"))
                .isEqualTo("freeze knows the signal numbers of x86-64 and AArch64 Linux only; this is ppc64le");
    }

    @Test
    void health_says_it_loads_on_the_first_freeze_plan_and_nothing_is_loaded_before() {
        NativeFreezer freezer = new NativeFreezer();
        assertThat(freezer.status()).isIn("loads on the first freeze plan",
                NativeFreezer.staticRefusal(System.getProperty("os.name"), System.getProperty("os.arch")));
    }

    @Test
    void a_failed_freeze_is_logged_once_on_standard_error_and_thrown_to_the_controller_each_time() {
        NativeFreezer freezer = new NativeFreezer(window -> {
            throw new IllegalStateException("the process did not stop (test)");
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> freezer.freeze(1_000, 2_000)).isInstanceOf(IllegalStateException.class)
                        .hasMessage("the process did not stop (test)");
            }
        } finally {
            System.setErr(original);
        }
        assertThat(err.toString(StandardCharsets.UTF_8).lines())
                .singleElement().asString()
                .endsWith(" ERROR loadsmith agent: freeze failed, the rest of its plan is dropped: the process did not stop (test)");
    }

    @Test
    void a_refusal_names_the_innermost_cause() {
        Throwable wrapped = new ExceptionInInitializerError(new IllegalCallerException("Illegal native access from: unnamed module"));
        assertThat(NativeFreezer.rootCause(wrapped))
                .isEqualTo("java.lang.IllegalCallerException: Illegal native access from: unnamed module");
    }
}
