package io.loadsmith.tester.scenario;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.scenario.Scenario.Load;
import io.loadsmith.tester.scenario.Scenario.SeededStalls;
import io.loadsmith.tester.scenario.Scenario.Simulation;
import io.loadsmith.tester.schedule.Stage;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Maps a parsed {@link Scenario} onto the engine's {@link TesterSpec}, {@link RequestSource} and simulation. */
public final class EngineMapping {

    private EngineMapping() {
    }

    /** The tester of a scenario, named after the scenario. */
    public static TesterSpec tester(Scenario scenario) {
        Load load = scenario.load();
        TesterSpec spec = switch (load.model()) {
            case OPEN -> load.stages().isEmpty()
                    ? TesterSpec.open(load.ratePerSecond())
                            .arrivals(load.arrivals() == Scenario.Arrivals.POISSON ? TesterSpec.Arrivals.POISSON
                                    : TesterSpec.Arrivals.CONSTANT)
                            .duration(load.durationNanos())
                    : TesterSpec.ramp(0, stages(load))
                            .arrivals(load.arrivals() == Scenario.Arrivals.POISSON ? TesterSpec.Arrivals.POISSON
                                    : TesterSpec.Arrivals.CONSTANT);
            case CLOSED -> TesterSpec.closed(load.connections()).duration(load.durationNanos());
            case PACED -> TesterSpec.paced(load.connections(), load.paceNanos())
                    .onLate(load.onLate() == Scenario.OnLate.SKIP ? TesterSpec.OnLate.SKIP : TesterSpec.OnLate.CATCH_UP)
                    .duration(load.durationNanos());
        };
        if (load.maxConcurrency() > 0) {
            spec = spec.maxConcurrency(load.maxConcurrency());
        }
        if (load.warmupRequests() > 0) {
            spec = spec.warmupRequests(load.warmupRequests());
        }
        if (load.warmupNanos() > 0) {
            spec = spec.warmupDuration(load.warmupNanos());
        }
        if (scenario.objectiveNanos() != null) {
            spec = spec.objective(scenario.objectiveNanos());
        }
        return spec.grace(load.graceNanos()).seed(load.seed()).name(load.model().name().toLowerCase());
    }

    private static List<Stage> stages(Load load) {
        List<Stage> stages = new ArrayList<>();
        for (Scenario.Stage stage : load.stages()) {
            stages.add(new Stage(stage.durationNanos(), stage.targetPerSecond()));
        }
        return stages;
    }

    /**
     * The transport a real run of the scenario uses: {@code target.transport}, {@code target.tls} and
     * {@code target.http}, and a pool
     * of {@code load.connections} (open: at least {@code max_concurrency}, so every admitted request finds one).
     */
    public static TransportOptions transport(Scenario scenario) {
        Load load = scenario.load();
        int connections = load.connections();
        if (load.model() == Scenario.Model.OPEN && load.maxConcurrency() > 0) {
            connections = Math.max(connections, load.maxConcurrency());
        }
        return TransportOptions.connections(connections).withKind(scenario.target().transport())
                .withTls(scenario.target().tls()).withHttp(scenario.target().http());
    }

    /** What each arrival sends: the journeys, or one GET of {@code baseUri}. */
    public static RequestSource source(Scenario scenario, URI baseUri) {
        if (scenario.journeys().isEmpty()) {
            return RequestSource.get(baseUri);
        }
        return new ScenarioSource(baseUri, scenario.journeys(), scenario.load().seed());
    }

    /** The simulated target of a {@code simulate:} scenario; the stall plan's horizon covers the whole run. */
    public static io.loadsmith.tester.simulate.Simulation.Target simulation(Scenario scenario) {
        Simulation sim = scenario.target().simulate();
        io.loadsmith.tester.simulate.ServiceTime serviceTime = switch (sim.serviceTime().distribution()) {
            case CONSTANT -> io.loadsmith.tester.simulate.ServiceTime.constant(sim.serviceTime().meanNanos());
            case EXPONENTIAL -> io.loadsmith.tester.simulate.ServiceTime.exponential(sim.serviceTime().meanNanos());
            case LOGNORMAL -> io.loadsmith.tester.simulate.ServiceTime.logNormal(sim.serviceTime().medianNanos(),
                    sim.serviceTime().sigma());
        };
        StallPlan plan = null;
        if (sim.stallPlan() != null) {
            plan = seeded(sim.stallPlan(), horizonNanos(scenario));
        } else if (!sim.stallWindows().isEmpty()) {
            List<PlannedStall> windows = new ArrayList<>();
            for (int i = 0; i < sim.stallWindows().size(); i++) {
                Scenario.StallWindow w = sim.stallWindows().get(i);
                windows.add(new PlannedStall(i, w.atNanos(), w.durationNanos()));
            }
            plan = StallPlan.explicit(windows, io.loadsmith.stall.plan.StallKind.BLOCK);
        }
        return new io.loadsmith.tester.simulate.Simulation.Target(sim.servers(), serviceTime, plan);
    }

    /** A seeded plan over the counted run and its grace. */
    public static StallPlan seeded(SeededStalls stalls, long horizonNanos) {
        return StallPlan.seeded(new SeededPlanSpec(stalls.seed(), stalls.meanIntervalNanos(), stalls.durationNanos(),
                stalls.minGapNanos(), horizonNanos), stalls.kind());
    }

    /** How long after the counted start stalls may be planned: the run's duration. */
    public static long horizonNanos(Scenario scenario) {
        return scenario.load().durationNanos();
    }
}
