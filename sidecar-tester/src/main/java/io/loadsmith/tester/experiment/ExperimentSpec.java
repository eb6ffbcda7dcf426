package io.loadsmith.tester.experiment;

import static io.loadsmith.tester.scenario.Field.keys;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.grpc.GrpcTarget;
import io.loadsmith.tester.profile.ReplayPlan;
import io.loadsmith.tester.scenario.Field;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioException;
import io.loadsmith.tester.scenario.ScenarioParser;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed experiment file (docs/experiments.md): arms (each a tester over one base scenario), rounds, stall
 * on and off, the stall plan, how the service is started, and the analyses.
 *
 * @param name           the experiment's name
 * @param file           where it was read from
 * @param scenario       the base scenario file (target, journeys, objective); each arm replaces its load
 * @param rounds         how many rounds (>= 1)
 * @param durationNanos  every counted run
 * @param warmup         the warm-up, as a scenario's load.warmup value (a count or a duration)
 * @param graceNanos     every run's grace
 * @param seed           round r uses seed + r - 1, in every arm
 * @param stallStates    the stall states run in every round: [true], [false] or [true, false]
 * @param stalls         the stall plan (admin null when the service is managed here)
 * @param service        how the service is started
 * @param arms           the testers
 * @param metric         what pairs compare: p50, p99, max or mean, of corrected latency unless ":service"
 * @param pairs          pairs of arm names to compare
 * @param sweep          a rate sweep, or null
 * @param windows        windows of a long run, or null
 */
public record ExperimentSpec(String name, Path file, Path scenario, int rounds, long durationNanos, String warmup,
                             long graceNanos, long seed, List<Boolean> stallStates, Stalls stalls, Service service,
                             List<ArmSpec> arms, String metric, List<List<String>> pairs, SweepSpec sweep, WindowsSpec windows) {

    /** The stall plan; {@code admin} is null when the managed service's agent is used. */
    public record Stalls(URI admin, Path tokenFile, long meanIntervalNanos, long durationNanos, long minGapNanos,
                         StallKind kind) {
    }

    /**
     * How the service is run.
     *
     * @param managedThreads  > 0: the reference scored service is started here with the agent, with this many threads
     * @param restartCommand  else: a shell command run before every run (null: the service is left alone)
     * @param health          a URL polled until it answers 200 after a restart (null: none)
     * @param timeoutNanos    how long to wait for health
     * @param idleShare       the share of CPU time that must be idle over 2 s before a run (0: not checked)
     * @param restartEachRun  managed: a fresh service before every run (else one for the whole experiment)
     */
    public record Service(int managedThreads, String restartCommand, URI health, long timeoutNanos, double idleShare,
                          boolean restartEachRun) {
    }

    /**
     * The base scenario with the arm's load and this experiment's duration, warm-up, grace and the round's seed;
     * the managed service's URL (null when not managed) replaces the target.
     */
    public Scenario scenario(ArmSpec arm, long seed, URI managedUrl) throws IOException {
        ObjectNode load = (ObjectNode) JSON.readTree(arm.loadJson());
        load.put("duration", durationNanos / 1_000_000 + "ms");
        if (warmup.matches("[0-9]+")) {
            load.put("warmup", Long.parseLong(warmup));
        } else {
            load.put("warmup", warmup);
        }
        load.put("grace", graceNanos / 1_000_000 + "ms");
        load.put("seed", seed);
        List<String> overrides = new ArrayList<>();
        overrides.add("load=" + load);
        if (managedUrl != null) {
            overrides.add("target.url=" + managedUrl);
        }
        return ScenarioParser.parse(scenario, overrides);
    }

    /**
     * Whether the base scenario's {@code target.url} is a grpc:// or grpcs:// one: then the managed service is
     * started with its gRPC port too, and that address replaces the target. Read from the file's YAML alone
     * (a full parse could ask a server for its services by reflection before the managed one is up).
     */
    public boolean grpcTarget() {
        try {
            Field root = Field.parse(Files.readString(scenario, StandardCharsets.UTF_8), scenario.getFileName().toString());
            String url = JSON.readTree(root.json()).path("target").path("url").asText("");
            return GrpcTarget.isGrpc(URI.create(url));
        } catch (IllegalArgumentException e) {
            return false; // not a URL at all: the scenario's own parse names it
        } catch (IOException e) {
            throw new ScenarioException(scenario + ": cannot read it (" + e.getMessage() + ")", e);
        }
    }

    /**
     * One tester: its name and its scenario {@code load} mapping as JSON.
     *
     * @param replay what its stalled runs arm instead of the experiment's seeded plan ({@code arms[].stalls:
     *               {replay: profile.json, ...}}); null: the seeded plan
     */
    public record ArmSpec(String name, String loadJson, double ratePerSecond, ReplayPlan replay) {
    }

    public record SweepSpec(List<String> arms, double boundMs, String metric) {
    }

    public record WindowsSpec(String arm, long windowNanos) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> ROOT = keys("name", "scenario", "rounds", "duration", "warmup", "grace", "seed",
            "stall", "stalls", "service", "arms", "metric", "pairs", "sweep", "windows");
    private static final Set<String> STALLS = keys("admin", "token_file", "mean_interval", "duration", "min_gap", "kind");
    private static final Set<String> SERVICE = keys("managed", "threads", "restart", "health", "timeout", "idle");
    private static final Set<String> ARM = keys("name", "load", "stalls");
    private static final Set<String> ARM_STALLS = keys("replay", "from", "to", "min_duration", "speed", "kind");
    private static final Set<String> SWEEP = keys("arms", "bound", "metric");
    private static final Set<String> WINDOWS = keys("arm", "window");
    private static final Set<String> METRICS = Set.of("p50", "p99", "max", "mean", "p50:service", "p99:service",
            "max:service", "mean:service");

    /** Reads and checks an experiment file; a {@link ScenarioException} names file, line and key. */
    public static ExperimentSpec parse(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        String label = file.getFileName().toString();
        Path dir = file.toAbsolutePath().normalize().getParent();
        Field root = Field.parse(text, label);
        Map<String, Field> f = root.mapping(ROOT);
        String name = f.containsKey("name") ? f.get("name").string() : label.replaceFirst("\\.ya?ml$", "");
        if (!f.containsKey("scenario")) {
            throw root.error("needs scenario: the base scenario file (target, journeys, objective)");
        }
        Path scenario = dir.resolve(f.get("scenario").string()).normalize();
        if (!Files.isRegularFile(scenario)) {
            throw f.get("scenario").error("names " + scenario + ", which does not exist");
        }
        int rounds = f.containsKey("rounds") ? (int) f.get("rounds").integer(1, Integer.MAX_VALUE) : 5;
        if (!f.containsKey("duration")) {
            throw root.error("needs duration: the counted length of every run, e.g. 30s");
        }
        long duration = f.get("duration").duration(0, true);
        String warmup = f.containsKey("warmup") ? f.get("warmup").string() : "0";
        long grace = f.containsKey("grace") ? f.get("grace").duration(0, true) : 5_000_000_000L;
        long seed = f.containsKey("seed") ? f.get("seed").integer(Long.MIN_VALUE, Long.MAX_VALUE) : 1;
        List<Boolean> states = stallStates(f.get("stall"));
        Stalls stalls = null;
        if (states.contains(true) && f.containsKey("stalls")) {
            stalls = stalls(f.get("stalls"), dir);
        }
        Service service = f.containsKey("service") ? service(f.get("service"))
                : new Service(0, null, null, 60_000_000_000L, 0, false);
        if (stalls != null && stalls.admin() == null && service.managedThreads() == 0) {
            throw f.get("stalls").error("needs admin: the agent's admin URL (or a managed service: service.managed)");
        }
        if (!f.containsKey("arms")) {
            throw root.error("needs arms: the testers to compare");
        }
        List<ArmSpec> arms = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Field item : f.get("arms").sequence("arms like {name: closed-1, load: {model: closed}}")) {
            Map<String, Field> a = item.mapping(ARM);
            if (!a.containsKey("name") || !a.containsKey("load")) {
                throw item.error("needs name and load");
            }
            String armName = a.get("name").string();
            if (!names.add(armName)) {
                throw a.get("name").error("repeats the arm name " + armName);
            }
            Map<String, Field> load = a.get("load").mapping(keys("model", "arrivals", "rate", "stages",
                    "connections", "pace", "on_late", "max_concurrency"));
            double rate = load.containsKey("rate") ? load.get("rate").number(0, true) : 0;
            if (load.containsKey("pace") && load.containsKey("connections")) {
                rate = load.get("connections").integer(1, Integer.MAX_VALUE) * 1e9
                        / load.get("pace").duration(0, true);
            }
            ReplayPlan replay = null;
            if (a.containsKey("stalls")) {
                Field.Mapping armStalls = a.get("stalls").entries(ARM_STALLS);
                replay = ScenarioParser.replay(armStalls, dir, duration, "duration");
            }
            arms.add(new ArmSpec(armName, a.get("load").json(), rate, replay));
        }
        if (arms.isEmpty()) {
            throw f.get("arms").error("must list at least one arm");
        }
        if (states.contains(true) && stalls == null) {
            if (arms.stream().anyMatch(arm -> arm.replay() == null)) {
                throw root.error("needs stalls: (the stall plan) when stall is on and an arm does not replay a profile");
            }
            if (service.managedThreads() == 0) {
                throw root.error("needs stalls: {admin: URL} (the agent to arm) when stall is on and the service is not"
                        + " managed here (service.managed)");
            }
        }
        String metric = f.containsKey("metric") ? f.get("metric").string() : "p99";
        if (!METRICS.contains(metric)) {
            throw f.get("metric").error("must be one of " + METRICS + " (got " + metric + ")");
        }
        List<List<String>> pairs = new ArrayList<>();
        if (f.containsKey("pairs")) {
            for (Field pair : f.get("pairs").sequence("pairs of arm names")) {
                List<Field> two = pair.sequence("two arm names");
                if (two.size() != 2) {
                    throw pair.error("must name two arms, e.g. [open-546, closed-1]");
                }
                for (Field arm : two) {
                    if (!names.contains(arm.string())) {
                        throw arm.error("names no arm (arms: " + names + ")");
                    }
                }
                pairs.add(List.of(two.get(0).string(), two.get(1).string()));
            }
        } else {
            for (int i = 1; i < arms.size(); i++) {
                pairs.add(List.of(arms.get(0).name(), arms.get(i).name()));
            }
        }
        SweepSpec sweep = null;
        if (f.containsKey("sweep")) {
            Map<String, Field> s = f.get("sweep").mapping(SWEEP);
            List<String> sweepArms = new ArrayList<>();
            for (Field arm : s.get("arms") == null ? List.<Field>of() : s.get("arms").sequence("arm names")) {
                if (!names.contains(arm.string())) {
                    throw arm.error("names no arm (arms: " + names + ")");
                }
                sweepArms.add(arm.string());
            }
            if (sweepArms.size() < 2 || !s.containsKey("bound")) {
                throw f.get("sweep").error("needs arms (at least two open arms at different rates) and bound (e.g. 50ms)");
            }
            sweep = new SweepSpec(sweepArms, s.get("bound").duration(0, true) / 1e6, s.containsKey("metric") ? s.get("metric").string() : metric);
        }
        WindowsSpec windows = null;
        if (f.containsKey("windows")) {
            Map<String, Field> w = f.get("windows").mapping(WINDOWS);
            if (!w.containsKey("arm") || !names.contains(w.get("arm").string()) || !w.containsKey("window")) {
                throw f.get("windows").error("needs arm (one of " + names + ") and window (e.g. 5s)");
            }
            windows = new WindowsSpec(w.get("arm").string(), w.get("window").duration(0, true));
        }
        return new ExperimentSpec(name, file, scenario, rounds, duration, warmup, grace, seed, states, stalls, service,
                List.copyOf(arms), metric, List.copyOf(pairs), sweep, windows);
    }

    private static List<Boolean> stallStates(Field field) {
        if (field == null) {
            return List.of(true, false);
        }
        List<Boolean> states = new ArrayList<>();
        for (Field item : field.isSequence() ? field.sequence("stall states") : List.of(field)) {
            switch (item.string()) {
                case "on", "true" -> states.add(true);
                case "off", "false" -> states.add(false);
                case "both" -> {
                    states.add(true);
                    states.add(false);
                }
                default -> throw item.error("must be on, off or both (got " + item.string() + ")");
            }
        }
        return List.copyOf(new java.util.LinkedHashSet<>(states));
    }

    private static Stalls stalls(Field field, Path dir) {
        Map<String, Field> s = field.mapping(STALLS);
        URI admin = null;
        if (s.containsKey("admin")) {
            admin = URI.create(s.get("admin").string());
            if (admin.getHost() == null) {
                throw s.get("admin").error("must be an http://HOST:PORT address");
            }
        }
        Path token = s.containsKey("token_file") ? TokenFile.path(dir, s.get("token_file").string()) : null;
        long mean = s.containsKey("mean_interval") ? s.get("mean_interval").duration(0, true) : 4_000_000_000L;
        long duration = s.containsKey("duration") ? s.get("duration").duration(0, true) : 100_000_000L;
        long minGap = s.containsKey("min_gap") ? s.get("min_gap").duration(0, true) : Math.max(duration, 500_000_000L);
        StallKind kind = StallKind.BLOCK;
        if (s.containsKey("kind")) {
            try {
                kind = StallKind.fromWireName(s.get("kind").string());
            } catch (IllegalArgumentException e) {
                throw s.get("kind").error("must be block, spin or freeze (got " + s.get("kind").string() + ")");
            }
        }
        if (minGap < duration || mean < minGap) {
            throw field.error("needs duration <= min_gap <= mean_interval");
        }
        return new Stalls(admin, token, mean, duration, minGap, kind);
    }

    private static Service service(Field field) {
        Map<String, Field> s = field.mapping(SERVICE);
        int threads = 0;
        boolean eachRun = false;
        if (s.containsKey("managed")) {
            String managed = s.get("managed").string();
            if (!managed.equals("scoring-service")) {
                throw s.get("managed").error("must be scoring-service (the reference scored service; got " + managed + ")");
            }
            threads = s.containsKey("threads") ? (int) s.get("threads").integer(1, Integer.MAX_VALUE) : 8;
            eachRun = !s.containsKey("restart") || s.get("restart").string().equals("each-run");
        }
        String restart = threads == 0 && s.containsKey("restart") ? s.get("restart").string() : null;
        URI health = s.containsKey("health") ? URI.create(s.get("health").string()) : null;
        long timeout = s.containsKey("timeout") ? s.get("timeout").duration(0, true) : 60_000_000_000L;
        double idle = s.containsKey("idle") ? s.get("idle").number(0, false) : 0;
        if (idle >= 1) {
            throw s.get("idle").error("must be a share from 0 to below 1, e.g. 0.95 (got " + idle + ")");
        }
        return new Service(threads, restart, health, timeout, idle, eachRun);
    }
}
