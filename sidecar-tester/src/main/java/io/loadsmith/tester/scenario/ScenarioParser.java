package io.loadsmith.tester.scenario;

import static io.loadsmith.tester.scenario.Field.keys;

import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.plan.PlanException;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.TesterSpec.Arrivals;
import io.loadsmith.tester.engine.TesterSpec.Model;
import io.loadsmith.tester.engine.TesterSpec.OnLate;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.grpc.GrpcTarget;
import io.loadsmith.tester.grpc.ProtoSet;
import io.loadsmith.tester.profile.ProfileException;
import io.loadsmith.tester.profile.ReplayPlan;
import io.loadsmith.tester.scenario.Scenario.DeclaredStalls;
import io.loadsmith.tester.scenario.Scenario.JourneySpec;
import io.loadsmith.tester.scenario.Scenario.Target;
import io.loadsmith.tester.schedule.Stage;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.PemCertificates;
import io.loadsmith.tester.transport.TransportOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Reads scenario files (docs/scenarios.md) with SnakeYAML Engine's node API, so that every error names
 * the file, the line and the key: {@code score.yaml:12: load.rate must be > 0 (got -5)}.
 *
 * <pre>{@code
 * Scenario s = ScenarioParser.parse(Path.of("score.yaml"), List.of("load.rate=800"));
 * }</pre>
 */
public final class ScenarioParser {

    /** Open testers' connection pool when neither connections nor max_concurrency is given. */
    public static final int DEFAULT_OPEN_CONNECTIONS = 512;
    public static final long DEFAULT_GRACE_NANOS = 10_000_000_000L;
    public static final long DEFAULT_SEED = 1;
    public static final long DEFAULT_MEAN_INTERVAL_NANOS = 4_000_000_000L;
    public static final long DEFAULT_STALL_NANOS = 100_000_000L;
    public static final long DEFAULT_MIN_GAP_NANOS = 500_000_000L;
    static final int MAX_CONNECTIONS = 100_000;
    /** {@code target.give_up_after} when absent: 10 s of nothing but refused or reset connections. */
    static final long DEFAULT_GIVE_UP_AFTER_NANOS = 10_000_000_000L;

    /** The most event loops {@code target.loops} may ask for. */
    static final int MAX_LOOPS = 256;
    static final double MAX_RATE = 1_000_000;
    /** The coarsest load.precision: a send at most this late. */
    static final long MAX_PRECISION_NANOS = 1_000_000_000L;

    private static final Set<String> ROOT = keys("name", "target", "stalls", "load", "objective", "journeys", "slos",
            "metrics");
    private static final Set<String> METRICS = keys("listen", "linger");
    private static final Set<String> TARGET = keys("url", "simulate", "transport", "tls", "http", "loops", "give_up_after",
            "grpc");
    private static final Set<String> TLS = keys("insecure", "ca_file");
    private static final Set<String> SIMULATE = keys("servers", "service_time", "stalls");
    private static final Set<String> SERVICE_TIME = keys("distribution", "mean", "median", "sigma");
    private static final Set<String> WINDOW = keys("at", "duration");
    private static final Set<String> PLAN = keys("seed", "mean_interval", "duration", "min_gap", "kind");
    private static final Set<String> AGENT = keys("admin", "token_file", "seed", "mean_interval", "duration",
            "min_gap", "kind", "replay", "from", "to", "min_duration", "speed");
    /** The keys of a seeded plan, which a replay replaces. */
    private static final List<String> SEEDED = List.of("seed", "mean_interval", "duration", "min_gap");
    /** The keys of a replay besides {@code replay} and {@code kind}. */
    private static final List<String> REPLAY = List.of("from", "to", "min_duration", "speed");
    private static final Set<String> LOAD = keys("model", "arrivals", "rate", "stages", "connections", "pace",
            "on_late", "duration", "warmup", "max_concurrency", "grace", "seed", "tester_pauses",
            "precision");
    private static final Set<String> STAGE = keys("duration", "target");

    private enum Distribution { CONSTANT, EXPONENTIAL, LOGNORMAL }

    /** A switch's two values ({@code load.tester_pauses}). */
    private enum OnOff { ON, OFF }

    private final String label;
    private final Path baseDir;

    private ScenarioParser(String label, Path baseDir) {
        this.label = label;
        this.baseDir = baseDir;
    }

    /**
     * Reads, overrides and validates a scenario file.
     *
     * @param overrides {@code key=value} texts as given to {@code --set}, applied in order
     * @throws ScenarioException naming file, line and key when anything is wrong
     */
    public static Scenario parse(Path file, List<String> overrides) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        Path absolute = file.toAbsolutePath().normalize();
        Path dir = absolute.getParent() == null ? Path.of(".") : absolute.getParent();
        String label = file.getFileName().toString();
        String defaultName = label.replaceFirst("\\.(ya?ml)$", "");
        return new ScenarioParser(label, dir).read(new String(bytes, StandardCharsets.UTF_8), sha256(bytes), file,
                defaultName, overrides);
    }

    /** Parses scenario text; {@code label} names it in errors, {@code baseDir} resolves data files. */
    public static Scenario parse(String text, String label, Path baseDir, List<String> overrides) {
        return new ScenarioParser(label, baseDir).read(text, sha256(text.getBytes(StandardCharsets.UTF_8)),
                baseDir.resolve(label), label.replaceFirst("\\.(ya?ml)$", ""), overrides);
    }

    private Scenario read(String text, String hash, Path file, String defaultName, List<String> overrides) {
        Field rootField = Field.parse(text, label);
        for (String override : overrides) {
            Overrides.apply(rootField.node(), override);
        }
        Field.Mapping f = rootField.entries(ROOT);
        String name = f.trimmed("name", defaultName);
        Field targetField = f.required("target");
        Field loadField = f.required("load");
        Field.Mapping load = loadField.entries(LOAD);
        TesterSpec tester = tester(loadField, load);
        boolean testerPauses = load.choice("tester_pauses", OnOff.class, OnOff.ON) == OnOff.ON;
        Target target = target(targetField, tester.durationNanos());
        DeclaredStalls stalls = null;
        if (f.has("stalls")) {
            if (target.simulated()) {
                throw f.get("stalls").error("arms an agent, so it needs target.url; a simulation takes its stalls "
                        + "under target.simulate.stalls");
            }
            stalls = agent(f.get("stalls"), tester.durationNanos());
        }
        if (f.has("objective")) {
            tester = tester.objective(f.get("objective").duration(0, true));
        }
        List<JourneySpec> journeys = f.optional("journeys").map(j -> JourneyParser.read(j, baseDir, target.grpc()))
                .orElse(List.of());
        if (target.grpc() != null && journeys.isEmpty()) {
            throw targetField.error("is a gRPC target (" + target.url().getScheme() + "://), so the scenario needs "
                    + "journeys of GRPC steps (there is no default call)");
        }
        List<Slo> slos = new ArrayList<>();
        if (f.has("slos")) {
            for (Field item : f.get("slos").sequence("objectives like \"p99 < 500ms\"")) {
                try {
                    slos.add(Slo.parse(item.string()));
                } catch (IllegalArgumentException e) {
                    throw item.error(e.getMessage());
                }
            }
        }
        Scenario.Metrics metrics = null;
        if (f.has("metrics")) {
            if (target.simulated()) {
                throw f.get("metrics").error("serves a real run's live figures, so it needs target.url; a simulation "
                        + "runs in virtual time, with nothing live to serve");
            }
            metrics = metrics(f.get("metrics"));
        }
        return new Scenario(name, file, hash, List.copyOf(overrides), target, stalls, tester,
                connections(load, tester), List.copyOf(journeys), List.copyOf(slos), metrics, testerPauses);
    }

    // ---- sections

    /** {@code horizonNanos}: how long after the counted start a seeded plan may place stalls. */
    private Target target(Field field, long horizonNanos) {
        Field.Mapping f = field.entries(TARGET);
        if (f.has("url") == f.has("simulate")) {
            throw field.error("needs exactly one of url (a real service) or simulate (a simulated one)");
        }
        if (f.has("simulate")) {
            for (String key : List.of("transport", "tls", "http", "loops", "give_up_after", "grpc")) {
                if (f.has(key)) {
                    throw f.get(key).error("is only for a target.url (a simulation has no HTTP client)");
                }
            }
            return new Target(null, simulation(f.get("simulate"), horizonNanos), TransportOptions.Kind.NETTY,
                    TransportOptions.Tls.DEFAULT, TransportOptions.Http.HTTP_1_1, 1, DEFAULT_GIVE_UP_AFTER_NANOS, null);
        }
        URI url = targetUrl(f.get("url"));
        boolean grpc = GrpcTarget.isGrpc(url);
        if (!grpc && f.has("grpc")) {
            throw f.get("grpc").error("is only for a grpc:// or grpcs:// url (got \"" + url + "\")");
        }
        TransportOptions.Http http = f.optional("http").map(ScenarioParser::httpVersion)
                .orElse(grpc ? TransportOptions.Http.HTTP_2 : TransportOptions.Http.HTTP_1_1);
        if (grpc && http != TransportOptions.Http.HTTP_2) {
            throw f.get("http").error("must be 2 for a " + url.getScheme() + ":// url (gRPC runs on HTTP/2)");
        }
        TransportOptions.Kind kind = f.choice("transport", TransportOptions.Kind.class,
                http == TransportOptions.Http.HTTP_2 ? TransportOptions.Kind.JETTY : TransportOptions.Kind.NETTY);
        if (grpc && kind != TransportOptions.Kind.JETTY) {
            throw f.get("transport").error("must be jetty for a " + url.getScheme() + ":// url (a gRPC call is an "
                    + "HTTP/2 request, which only the jetty transport speaks; " + kind.wireName() + " speaks HTTP/1.1)");
        }
        if (http == TransportOptions.Http.HTTP_2 && kind != TransportOptions.Kind.JETTY) {
            throw f.get("transport").error("must be jetty with target.http: 2 (HTTP/2 needs target.transport: "
                    + "jetty; " + kind.wireName() + " speaks HTTP/1.1 only)");
        }
        int loops = (int) f.integer("loops", 1, MAX_LOOPS, 1);
        if (loops > 1 && kind != TransportOptions.Kind.NETTY) {
            throw f.get("loops").error("must be 1 with target.transport: " + kind.wireName()
                    + " (more than one event loop is the netty transport's)");
        }
        TransportOptions.Tls tls = TransportOptions.Tls.DEFAULT;
        if (f.has("tls")) {
            if (!"https".equals(url.getScheme()) && !"grpcs".equals(url.getScheme())) {
                throw f.get("tls").error("is only for an https:// or grpcs:// url (got \"" + url + "\")");
            }
            tls = tls(f.get("tls"));
        }
        long giveUpAfterNanos = f.duration("give_up_after", 0, true, DEFAULT_GIVE_UP_AFTER_NANOS);
        ProtoSet protos = grpc ? GrpcParser.protos(f, url, baseDir, tls) : null;
        return new Target(url, null, kind, tls, http, loops, giveUpAfterNanos, protos);
    }

    /** {@code target.http: "1.1"} or {@code "2"} (a YAML number or string). */
    private static TransportOptions.Http httpVersion(Field field) {
        String text = field.text().trim();
        for (TransportOptions.Http version : TransportOptions.Http.values()) {
            if (version.wireName().equals(text)) {
                return version;
            }
        }
        throw field.error("must be \"1.1\" or \"2\" (got " + Field.quote(text) + ")");
    }

    /** {@code target.tls: {insecure: true}} or {@code {ca_file: PATH}} (PEM, relative to the scenario). */
    private TransportOptions.Tls tls(Field field) {
        Field.Mapping f = field.entries(TLS);
        boolean insecure = false;
        if (f.has("insecure")) {
            String text = f.get("insecure").text().trim();
            if (!text.equals("true") && !text.equals("false")) {
                throw f.get("insecure").error("must be true or false (got \"" + text + "\")");
            }
            insecure = text.equals("true");
        }
        Path caFile = null;
        if (f.has("ca_file")) {
            if (insecure) {
                throw f.get("ca_file").error("cannot go with insecure: true (which trusts any certificate)");
            }
            Field ca = f.get("ca_file");
            caFile = baseDir.resolve(ca.string().trim()).normalize();
            if (!Files.isRegularFile(caFile)) {
                throw ca.error("names a file that does not exist: " + caFile);
            }
            try {
                PemCertificates.read(caFile);
            } catch (IOException e) {
                throw ca.error("cannot be used: " + caFile + " " + e.getMessage());
            }
        }
        return new TransportOptions.Tls(insecure, caFile);
    }

    /** {@code target.url}: http://, https://, or a gRPC target's grpc:// or grpcs:// with a port. */
    private URI targetUrl(Field field) {
        URI uri = url(field);
        if (GrpcTarget.isGrpc(uri)) {
            return GrpcParser.url(field, uri);
        }
        return httpUrl(field, uri);
    }

    private URI httpUrl(Field field) {
        return httpUrl(field, url(field));
    }

    private static URI httpUrl(Field field, URI uri) {
        if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw field.error("must be an http:// or https:// URL with a host (got \"" + field.string().trim() + "\")");
        }
        return uri;
    }

    private static URI url(Field field) {
        String text = field.string().trim();
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw field.error("is not a URL (" + e.getReason() + ": \"" + text + "\")");
        }
        return uri;
    }

    private Simulation.SimulatedTarget simulation(Field field, long horizonNanos) {
        Field.Mapping f = field.entries(SIMULATE);
        int servers = (int) f.integer("servers", 1, 10_000, 1);
        ServiceTime serviceTime = serviceTime(f.required("service_time"));
        StallPlan plan = null;
        if (f.has("stalls")) {
            Field stalls = f.get("stalls");
            plan = stalls.isMapping() ? seededStalls(stalls, stalls.entries(PLAN), horizonNanos) : windows(stalls);
        }
        return new Simulation.SimulatedTarget(servers, serviceTime, plan);
    }

    private ServiceTime serviceTime(Field field) {
        if (field.isScalar()) {
            return ServiceTime.constant(field.duration(0, true));
        }
        Field.Mapping f = field.entries(SERVICE_TIME);
        Distribution distribution = f.choice("distribution", Distribution.class, Distribution.CONSTANT);
        if (distribution == Distribution.LOGNORMAL) {
            if (f.has("mean")) {
                throw f.get("mean").error("is not used by distribution lognormal (give median and sigma)");
            }
            long median = f.required("median").duration(0, true);
            double sigma = f.required("sigma").number(0, true);
            return ServiceTime.logNormal(median, sigma);
        }
        for (String unused : List.of("median", "sigma")) {
            if (f.has(unused)) {
                throw f.get(unused).error("is only for distribution lognormal");
            }
        }
        long mean = f.required("mean").duration(0, true);
        return distribution == Distribution.EXPONENTIAL ? ServiceTime.exponential(mean) : ServiceTime.constant(mean);
    }

    private StallPlan windows(Field field) {
        List<PlannedStall> windows = new ArrayList<>();
        long previousEnd = -1;
        for (Field item : field.sequence("stall windows like {at: 20s, duration: 5s}")) {
            Field.Mapping f = item.entries(WINDOW);
            Field at = f.required("at");
            long atNanos = at.duration(0, false);
            long duration = f.required("duration").duration(0, true);
            if (atNanos < previousEnd) {
                throw at.error("overlaps the stall before it (which ends at " + Durations.format(previousEnd)
                        + "); list stalls in order, apart");
            }
            previousEnd = atNanos + duration;
            windows.add(new PlannedStall(windows.size(), atNanos, duration));
        }
        return windows.isEmpty() ? null : StallPlan.explicit(windows, StallKind.BLOCK);
    }

    private StallPlan seededStalls(Field field, Field.Mapping f, long horizonNanos) {
        long seed = f.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, DEFAULT_SEED);
        long duration = f.duration("duration", 0, true, DEFAULT_STALL_NANOS);
        long minGap = DEFAULT_MIN_GAP_NANOS;
        if (f.has("min_gap")) {
            minGap = f.get("min_gap").duration(duration, false);
        } else if (minGap < duration) {
            throw field.error("needs min_gap >= duration (" + Durations.format(duration) + "); the default min_gap is "
                    + Durations.format(DEFAULT_MIN_GAP_NANOS));
        }
        long meanInterval = DEFAULT_MEAN_INTERVAL_NANOS;
        if (f.has("mean_interval")) {
            meanInterval = f.get("mean_interval").duration(minGap, false);
        } else if (meanInterval < minGap) {
            throw field.error("needs mean_interval >= min_gap (" + Durations.format(minGap)
                    + "); the default mean_interval is " + Durations.format(DEFAULT_MEAN_INTERVAL_NANOS));
        }
        StallKind kind = f.has("kind") ? kind(f.get("kind")) : StallKind.BLOCK;
        try {
            return StallPlan.seeded(new SeededPlanSpec(seed, meanInterval, duration, minGap, horizonNanos), kind);
        } catch (PlanException e) {
            throw field.error(e.getMessage());
        }
    }

    /** {@code metrics:}: {@code listen} (HOST:PORT or PORT) and {@code linger} (a duration, default 5 s). */
    private Scenario.Metrics metrics(Field field) {
        Field.Mapping f = field.entries(METRICS);
        Field listen = f.required("listen");
        Scenario.Metrics metrics;
        try {
            metrics = Scenario.Metrics.listen(listen.string());
        } catch (IllegalArgumentException e) {
            throw listen.error(e.getMessage());
        }
        return f.optional("linger").map(linger -> metrics.linger(linger.duration(0, false))).orElse(metrics);
    }

    private DeclaredStalls agent(Field field, long horizonNanos) {
        Field.Mapping f = field.entries(AGENT);
        List<URI> admins = admins(f.required("admin"));
        String token = f.trimmed("token_file", null);
        Path tokenFile = token == null ? null : TokenFile.path(baseDir, token);
        if (f.has("replay")) {
            for (String key : SEEDED) {
                if (f.has(key)) {
                    throw f.get(key).error("is for a seeded plan, and stalls.replay replays a profile instead: give one of them");
                }
            }
            ReplayPlan replay = replay(f, baseDir, horizonNanos, "load.duration");
            return new DeclaredStalls(admins.get(0), tokenFile, replay.plan(), admins, replay);
        }
        for (String key : REPLAY) {
            if (f.has(key)) {
                throw f.get(key).error("is only for stalls.replay (a pause profile to replay)");
            }
        }
        return new DeclaredStalls(admins.get(0), tokenFile, seededStalls(field, f.without("admin", "token_file"), horizonNanos),
                admins, null);
    }

    /**
     * The replay of a {@code stalls} mapping {@code f} (docs/replaying-pauses.md): {@code replay} (a pause profile,
     * relative to {@code baseDir}), {@code from}, {@code to}, {@code min_duration}, {@code speed} and {@code kind};
     * the plan must end within {@code horizonNanos} of the counted start (the counted run, given as
     * {@code horizonKey}).
     *
     * @throws ScenarioException naming file, line and key: a profile that cannot be read or has no pause in
     *                           the range, or a plan longer than the counted run
     */
    public static ReplayPlan replay(Field.Mapping f, Path baseDir, long horizonNanos, String horizonKey) {
        Field replayField = f.required("replay");
        Path file = baseDir.resolve(replayField.string().trim()).normalize();
        long from = f.duration("from", 0, false, 0);
        Long to = f.has("to") ? f.get("to").duration(from, true) : null;
        long minDuration = f.duration("min_duration", 0, false, 0);
        double speed = f.number("speed", 0, true, 1.0);
        StallKind kind = f.has("kind") ? kind(f.get("kind")) : StallKind.BLOCK;
        ReplayPlan replay;
        try {
            replay = ReplayPlan.read(file, new ReplayPlan.ReplayRange(from, to, minDuration, speed, kind));
        } catch (ProfileException e) {
            throw replayField.error("cannot be replayed: " + e.getMessage());
        }
        if (replay.horizonNanos() > horizonNanos) {
            throw replayField.error("gives a plan of " + Durations.format(replay.horizonNanos()) + " (its last window ends"
                    + " then), longer than the counted run (" + horizonKey + " " + Durations.format(horizonNanos) + "): "
                    + "narrow from and to, raise speed, or lengthen " + horizonKey);
        }
        return replay;
    }

    /** {@code stalls.kind}: block, spin or freeze. */
    private static StallKind kind(Field k) {
        String text = k.text().trim();
        try {
            return StallKind.fromWireName(text);
        } catch (RuntimeException e) {
            throw k.error("must be one of block, spin, freeze (got \"" + text + "\")");
        }
    }

    /** {@code stalls.admin}: one URL, or a list of them (one per replica), none given twice. */
    private List<URI> admins(Field field) {
        if (!field.isSequence()) {
            return List.of(httpUrl(field));
        }
        List<Field> items = field.sequence("admin URLs like http://10.0.0.7:7070");
        if (items.isEmpty()) {
            throw field.error("must list at least one admin URL");
        }
        List<URI> admins = new ArrayList<>();
        for (Field item : items) {
            URI admin = httpUrl(item);
            if (admins.contains(admin)) {
                throw item.error("lists " + admin + " twice");
            }
            admins.add(admin);
        }
        return List.copyOf(admins);
    }

    /** The tester of the {@code load} mapping {@code f}; with stages, the stages give the duration. */
    private TesterSpec tester(Field field, Field.Mapping f) {
        Model model = f.choice("model", Model.class, Model.OPEN);
        String modelName = model.name().toLowerCase();
        for (String key : List.of("arrivals", "rate", "stages", "max_concurrency")) {
            if (model != Model.OPEN && f.has(key)) {
                throw f.get(key).error("is only for model open (this is model " + modelName + ")");
            }
        }
        for (String key : List.of("pace", "on_late")) {
            if (model != Model.PACED && f.has(key)) {
                throw f.get(key).error("is only for model paced (this is model " + modelName + ")");
            }
        }
        Arrivals arrivals = f.choice("arrivals", Arrivals.class, Arrivals.POISSON);
        double rate = 0;
        List<Stage> stages = List.of();
        if (model == Model.OPEN) {
            if (f.has("rate") && f.has("stages")) {
                throw f.get("stages").error("replaces load.rate; give one of rate and stages");
            }
            if (f.has("rate")) {
                rate = f.get("rate").number(0, true);
                if (rate > MAX_RATE) {
                    throw f.get("rate").error("must be <= " + (long) MAX_RATE + " (got " + Durations.plain(rate) + ")");
                }
            } else if (f.has("stages")) {
                List<Stage> list = new ArrayList<>();
                for (Field item : f.get("stages").sequence("stages like {duration: 30s, target: 500}")) {
                    Field.Mapping s = item.entries(STAGE);
                    long d = s.required("duration").duration(0, true);
                    Field t = s.required("target");
                    double target = t.number(0, false);
                    if (target > MAX_RATE) {
                        throw t.error("must be <= " + (long) MAX_RATE + " (got " + Durations.plain(target) + ")");
                    }
                    list.add(new Stage(d, target));
                }
                if (list.isEmpty()) {
                    throw f.get("stages").error("must have at least one stage");
                }
                stages = List.copyOf(list);
            } else {
                throw field.error("needs rate (requests a second) or stages for model open");
            }
        }
        int maxConcurrency = (int) f.integer("max_concurrency", 1, MAX_CONNECTIONS, 0);
        int connections = (int) f.integer("connections", 1, MAX_CONNECTIONS, 1);
        long pace = model == Model.PACED ? f.required("pace").duration(0, true) : 0;
        OnLate onLate = f.choice("on_late", OnLate.class, OnLate.CATCH_UP);
        long duration = 0;
        if (f.has("duration")) {
            duration = f.get("duration").duration(0, true);
        } else if (stages.isEmpty()) {
            throw field.error("needs duration (how long the counted run lasts, e.g. 30s)");
        }
        long warmupRequests = 0;
        long warmupNanos = 0;
        if (f.has("warmup")) {
            Field w = f.get("warmup");
            String text = w.text().trim();
            if (text.matches("-?[0-9_]+")) {
                warmupRequests = w.integer(0, Long.MAX_VALUE);
            } else {
                warmupNanos = w.duration(0, false);
            }
        }
        long grace = f.duration("grace", 0, false, DEFAULT_GRACE_NANOS);
        long seed = f.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, DEFAULT_SEED);
        TesterSpec tester = switch (model) {
            case OPEN -> stages.isEmpty() ? TesterSpec.open(rate).duration(duration) : TesterSpec.ramp(0, stages);
            case CLOSED -> TesterSpec.closed(connections).duration(duration);
            case PACED -> TesterSpec.paced(connections, pace).onLate(onLate).duration(duration);
        };
        long precision = f.duration("precision", 0, false, Scheduler.DEFAULT_PRECISION_NANOS);
        if (precision > MAX_PRECISION_NANOS) {
            throw f.get("precision").error("must be <= 1s (how late a send may go; got "
                    + Durations.format(precision) + ")");
        }
        return tester.arrivals(arrivals).maxConcurrency(maxConcurrency).warmupRequests(warmupRequests)
                .warmupDuration(warmupNanos).grace(grace).seed(seed).precision(precision);
    }

    /** Connections of the HTTP client (see {@link Scenario#connections()}). */
    private static int connections(Field.Mapping load, TesterSpec tester) {
        if (tester.model() != Model.OPEN) {
            return tester.connections();
        }
        int cap = tester.maxConcurrency();
        int given = (int) load.integer("connections", 1, MAX_CONNECTIONS, cap > 0 ? cap : DEFAULT_OPEN_CONNECTIONS);
        return Math.max(given, cap);
    }

    // ---- helpers

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
