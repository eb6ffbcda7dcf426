package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TimerSlackTest {

    @Test
    void a_thread_sets_its_own_timer_slack_and_no_other() throws Exception {
        boolean linux = Files.exists(Path.of("/proc/self/timerslack_ns"));
        String before = linux ? Files.readString(Path.of("/proc/self/timerslack_ns")).trim() : null;
        AtomicReference<Boolean> set = new AtomicReference<>();
        AtomicReference<String> seen = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            set.set(TimerSlack.minimiseForThisThread());
            try {
                String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
                seen.set(Files.readString(Path.of("/proc", self.substring(self.lastIndexOf('/') + 1),
                        "timerslack_ns")).trim());
            } catch (Exception e) {
                seen.set(e.toString());
            }
        });
        thread.start();
        thread.join();

        assertThat(set.get()).isEqualTo(linux);
        if (linux) {
            assertThat(seen.get()).isEqualTo("1");
            assertThat(Files.readString(Path.of("/proc/self/timerslack_ns")).trim()).isEqualTo(before);
        }
    }
}
