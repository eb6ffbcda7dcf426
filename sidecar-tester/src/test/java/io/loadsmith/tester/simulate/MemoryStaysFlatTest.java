package io.loadsmith.tester.simulate;

import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 10-minute run at 20,000 requests a second (12 million requests, on the simulator) keeps the heap flat:
 * every request goes to the log on disk, only seconds still in flight are held. Slow (about 30 s and
 * 420 MB of request log): {@code ./mvnw -pl sidecar-tester -am verify -Dgroups=slow -Dtest=MemoryStaysFlatTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("slow")
class MemoryStaysFlatTest {

    static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void ten_minutes_at_twenty_thousand_a_second_do_not_grow_the_heap() throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 4, ServiceTime.exponential(150_000), 3);
        List<Long> usedAfterGcBytes = new ArrayList<>();
        RunListener sampleEachMinute = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                for (int minute = 1; minute <= 10; minute++) {
                    scheduler.at(startNanos + minute * 60 * S - 30 * S, () -> {
                        System.gc();
                        usedAfterGcBytes.add(memory.getHeapMemoryUsage().getUsed());
                    });
                }
            }
        };

        RunResult result = LoadRun.run(TesterSpec.open(20_000).duration(600 * S).seed(4), scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir, LoadRun.RunOptions.defaults().withListener(sampleEachMinute));

        assertThat(result.counts().sent()).isBetween(11_990_000L, 12_010_000L);
        assertThat(usedAfterGcBytes).hasSize(10).allSatisfy(used -> assertThat(used).isLessThan(200L << 20));
        assertThat(usedAfterGcBytes.get(9) - usedAfterGcBytes.get(0)).isLessThan(50L << 20);
    }
}
