package io.loadsmith.tester.simulate;

import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * {@code target: simulate:}: runs the real engine on a {@link VirtualScheduler} against a
 * {@link SimulatedServer}. The stall plan is armed at the counted run's start, as the CLI arms a real
 * agent, so its offsets are offsets from the counted start.
 *
 * <pre>{@code
 * RunResult result = Simulation.run(TesterSpec.open(50).duration(60_000_000_000L),
 *         new Simulation.SimulatedTarget(1, ServiceTime.constant(10_000_000L), stallPlan), null, Path.of("out/open"));
 * }</pre>
 */
public final class Simulation {

    /** The default request of a simulation: a GET nobody serves. */
    public static final URI SIMULATED_URI = URI.create("http://simulated.invalid/");

    private Simulation() {
    }

    /**
     * The simulated service.
     *
     * @param servers     k servers behind one FIFO queue
     * @param serviceTime the service-time model
     * @param stalls      stall windows armed at the counted start, or null for none
     */
    public record SimulatedTarget(int servers, ServiceTime serviceTime, StallPlan stalls) {
    }

    /**
     * Runs tester against target in virtual time; source null means one GET per arrival. The service-time
     * draws are seeded from the tester's seed (a stream of their own).
     */
    public static RunResult run(TesterSpec tester, SimulatedTarget target, RequestSource source, Path runDir) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, target.servers(), target.serviceTime(),
                tester.seed() ^ 0x5e71ce5eedL);
        RunListener arm = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                if (target.stalls() != null) {
                    server.arm(target.stalls(), startNanos);
                }
            }
        };
        return LoadRun.run(tester, scheduler, server, source != null ? source : RequestSource.get(SIMULATED_URI),
                runDir, LoadRun.RunOptions.defaults().withListener(arm));
    }
}
