package io.loadsmith.tester.client.netty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Linux's timer slack for the calling thread. The kernel may let a timed wait of a thread (here the loop's
 * {@code epoll_pwait2} timeout) end up to the thread's slack late, 50 µs by default, to batch wake-ups; a
 * load generator wants its wake-ups on time instead. A thread may set its own slack by writing
 * {@code /proc/TID/timerslack_ns} (Linux 4.6 and later; no privilege is needed for one's own thread), and
 * {@code /proc/thread-self} names the calling thread's TID. Elsewhere nothing changes.
 */
final class TimerSlack {

    private static final Logger LOG = LoggerFactory.getLogger(TimerSlack.class);

    private TimerSlack() {
    }

    /** Sets the calling thread's timer slack to 1 ns (0 would mean "the default"); false where it cannot. */
    static boolean minimiseForThisThread() {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "PID/task/TID"
            String tid = self.substring(self.lastIndexOf('/') + 1);
            Files.writeString(Path.of("/proc", tid, "timerslack_ns"), "1");
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot set the loop's timer slack ({}): its timed wake-ups may be up to 50 µs later", e.toString());
            return false;
        }
    }
}
