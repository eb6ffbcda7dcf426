package io.loadsmith.tester.scenario;

import static io.loadsmith.tester.scenario.Field.keys;

import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.plan.PlanException;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.Scheduler;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.engine.TesterSpec.Arrivals;
import io.loadsmith.tester.engine.TesterSpec.Model;
import io.loadsmith.tester.engine.TesterSpec.OnLate;
import io.loadsmith.tester.scenario.Scenario.AgentStalls;
import io.loadsmith.tester.scenario.Scenario.Check;
import io.loadsmith.tester.scenario.Scenario.Journey;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.scenario.Scenario.Target;
import io.loadsmith.tester.schedule.Stage;
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
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

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
    private static final Set<String> TARGET = keys("url", "simulate", "transport", "tls", "http", "loops", "give_up_after");
    private static final Set<String> TLS = keys("insecure", "ca_file");
    private static final Set<String> SIMULATE = keys("servers", "service_time", "stalls");
    private static final Set<String> SERVICE_TIME = keys("distribution", "mean", "median", "sigma");
    private static final Set<String> WINDOW = keys("at", "duration");
    private static final Set<String> PLAN = keys("seed", "mean_interval", "duration", "min_gap", "kind");
    private static final Set<String> AGENT = keys("admin", "token_file", "seed", "mean_interval", "duration",
            "min_gap", "kind");
    private static final Set<String> LOAD = keys("model", "arrivals", "rate", "stages", "connections", "pace",
            "on_late", "duration", "warmup", "max_concurrency", "grace", "seed", "tester_pauses",
            "precision");
    private static final Set<String> STAGE = keys("duration", "target");
    private static final Set<String> JOURNEY = keys("name", "weight", "data", "steps");
    private static final Set<String> STEP = keys("name", "request", "headers", "body", "check", "think");
    private static final Set<String> CHECK = keys("status", "json", "body_contains");
    private static final Set<String> METHODS = keys("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
    private static final Pattern REQUEST = Pattern.compile("\\s*(\\S+)\\s+(\\S.*?)\\s*");
    private static final Pattern SET = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*(?:\\[[0-9]+\\])?(?:\\.[A-Za-z_][A-Za-z0-9_]*(?:\\[[0-9]+\\])?)*)=(.*)",
            Pattern.DOTALL);

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
            applyOverride(rootField.node(), override);
        }
        Map<String, Field> f = rootField.mapping(ROOT);
        String name = f.containsKey("name") ? f.get("name").string().trim() : defaultName;
        Field targetField = required(f, "target", rootField);
        Field loadField = required(f, "load", rootField);
        Map<String, Field> load = loadField.mapping(LOAD);
        TesterSpec tester = tester(loadField, load);
        Target target = target(targetField, tester.durationNanos());
        AgentStalls stalls = null;
        if (f.containsKey("stalls")) {
            if (target.simulated()) {
                throw f.get("stalls").error("arms an agent, so it needs target.url; a simulation takes its stalls "
                        + "under target.simulate.stalls");
            }
            stalls = agent(f.get("stalls"), tester.durationNanos());
        }
        if (f.containsKey("objective")) {
            tester = tester.objective(f.get("objective").duration(0, true));
        }
        List<Journey> journeys = f.containsKey("journeys") ? journeys(f.get("journeys")) : List.of();
        List<Slo> slos = new ArrayList<>();
        if (f.containsKey("slos")) {
            for (Field item : f.get("slos").sequence("objectives like \"p99 < 500ms\"")) {
                try {
                    slos.add(Slo.parse(item.string()));
                } catch (IllegalArgumentException e) {
                    throw item.error(e.getMessage());
                }
            }
        }
        Scenario.Metrics metrics = null;
        if (f.containsKey("metrics")) {
            if (target.simulated()) {
                throw f.get("metrics").error("serves a real run's live figures, so it needs target.url; a simulation "
                        + "runs in virtual time, with nothing live to serve");
            }
            metrics = metrics(f.get("metrics"));
        }
        return new Scenario(name, file, hash, List.copyOf(overrides), target, stalls, tester,
                connections(load, tester), List.copyOf(journeys), List.copyOf(slos), metrics);
    }

    // ---- --set key=value

    private void applyOverride(Node root, String override) {
        Matcher m = SET.matcher(override);
        if (!m.matches()) {
            throw new ScenarioException("--set " + override + ": write it as key=value, e.g. --set load.rate=800");
        }
        String key = m.group(1);
        String source = "--set " + override;
        Node value = Field.compose(m.group(2), source)
                .orElseGet(() -> new ScalarNode(Tag.NULL, true, "", ScalarStyle.PLAIN, markOf(source), markOf(source)));
        String[] segments = key.split("\\.");
        Node current = root;
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            int index = -1;
            int bracket = segment.indexOf('[');
            if (bracket >= 0) {
                index = Integer.parseInt(segment.substring(bracket + 1, segment.length() - 1));
                segment = segment.substring(0, bracket);
            }
            path.append(path.length() == 0 ? "" : ".").append(segment);
            if (!(current instanceof MappingNode mapping)) {
                throw new ScenarioException(source + ": " + path + " cannot be set: its parent is not a mapping");
            }
            boolean last = i == segments.length - 1 && index < 0;
            NodeTuple found = null;
            for (NodeTuple tuple : mapping.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode s && s.getValue().equals(segment)) {
                    found = tuple;
                }
            }
            List<NodeTuple> tuples = new ArrayList<>(mapping.getValue());
            ScalarNode keyNode = new ScalarNode(Tag.STR, true, segment, ScalarStyle.PLAIN, markOf(source), markOf(source));
            if (last) {
                if (found != null) {
                    tuples.set(tuples.indexOf(found), new NodeTuple(found.getKeyNode(), value));
                } else {
                    tuples.add(new NodeTuple(keyNode, value));
                }
                mapping.setValue(tuples);
                return;
            }
            Node next;
            if (found == null) {
                if (index >= 0) {
                    throw new ScenarioException(source + ": " + path + " has no item " + index);
                }
                next = new MappingNode(Tag.MAP, true, new ArrayList<>(), FlowStyle.BLOCK, markOf(source), markOf(source));
                tuples.add(new NodeTuple(keyNode, next));
                mapping.setValue(tuples);
            } else {
                next = found.getValueNode();
            }
            if (index >= 0) {
                if (!(next instanceof SequenceNode seq) || index >= seq.getValue().size()) {
                    throw new ScenarioException(source + ": " + path + " has no item " + index);
                }
                path.append('[').append(index).append(']');
                if (i == segments.length - 1) {
                    seq.getValue().set(index, value);
                    return;
                }
                next = seq.getValue().get(index);
            }
            current = next;
        }
    }

    private static Optional<org.snakeyaml.engine.v2.exceptions.Mark> markOf(String source) {
        return Optional.of(new org.snakeyaml.engine.v2.exceptions.Mark(source, 0, 0, 0, new int[0], 0));
    }

    // ---- sections

    /** {@code horizonNanos}: how long after the counted start a seeded plan may place stalls. */
    private Target target(Field field, long horizonNanos) {
        Map<String, Field> f = field.mapping(TARGET);
        if (f.containsKey("url") == f.containsKey("simulate")) {
            throw field.error("needs exactly one of url (a real service) or simulate (a simulated one)");
        }
        if (f.containsKey("simulate")) {
            for (String key : List.of("transport", "tls", "http", "loops", "give_up_after")) {
                if (f.containsKey(key)) {
                    throw f.get(key).error("is only for a target.url (a simulation has no HTTP client)");
                }
            }
            return new Target(null, simulation(f.get("simulate"), horizonNanos), TransportOptions.Kind.NETTY,
                    TransportOptions.Tls.DEFAULT, TransportOptions.Http.HTTP_1_1, 1, DEFAULT_GIVE_UP_AFTER_NANOS);
        }
        URI url = httpUrl(f.get("url"));
        TransportOptions.Http http = f.containsKey("http") ? httpVersion(f.get("http")) : TransportOptions.Http.HTTP_1_1;
        TransportOptions.Kind kind = f.containsKey("transport") ? f.get("transport").choice(TransportOptions.Kind.class)
                : http == TransportOptions.Http.HTTP_2 ? TransportOptions.Kind.JETTY : TransportOptions.Kind.NETTY;
        if (http == TransportOptions.Http.HTTP_2 && kind != TransportOptions.Kind.JETTY) {
            throw f.get("transport").error("must be jetty with target.http: 2 (HTTP/2 needs target.transport: "
                    + "jetty; " + kind.wireName() + " speaks HTTP/1.1 only)");
        }
        int loops = f.containsKey("loops") ? (int) f.get("loops").integer(1, MAX_LOOPS) : 1;
        if (loops > 1 && kind != TransportOptions.Kind.NETTY) {
            throw f.get("loops").error("must be 1 with target.transport: " + kind.wireName()
                    + " (more than one event loop is the netty transport's)");
        }
        TransportOptions.Tls tls = TransportOptions.Tls.DEFAULT;
        if (f.containsKey("tls")) {
            if (!"https".equals(url.getScheme())) {
                throw f.get("tls").error("is only for an https:// url (got \"" + url + "\")");
            }
            tls = tls(f.get("tls"));
        }
        long giveUpAfterNanos = f.containsKey("give_up_after") ? f.get("give_up_after").duration(0, true)
                : DEFAULT_GIVE_UP_AFTER_NANOS;
        return new Target(url, null, kind, tls, http, loops, giveUpAfterNanos);
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
        Map<String, Field> f = field.mapping(TLS);
        boolean insecure = false;
        if (f.containsKey("insecure")) {
            String text = f.get("insecure").text().trim();
            if (!text.equals("true") && !text.equals("false")) {
                throw f.get("insecure").error("must be true or false (got \"" + text + "\")");
            }
            insecure = text.equals("true");
        }
        Path caFile = null;
        if (f.containsKey("ca_file")) {
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

    private URI httpUrl(Field field) {
        String text = field.string().trim();
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw field.error("is not a URL (" + e.getReason() + ": \"" + text + "\")");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw field.error("must be an http:// or https:// URL with a host (got \"" + text + "\")");
        }
        return uri;
    }

    private Simulation.Target simulation(Field field, long horizonNanos) {
        Map<String, Field> f = field.mapping(SIMULATE);
        int servers = f.containsKey("servers") ? (int) f.get("servers").integer(1, 10_000) : 1;
        ServiceTime serviceTime = serviceTime(required(f, "service_time", field));
        StallPlan plan = null;
        if (f.containsKey("stalls")) {
            Field stalls = f.get("stalls");
            plan = stalls.isMapping() ? seededStalls(stalls, stalls.mapping(PLAN), horizonNanos) : windows(stalls);
        }
        return new Simulation.Target(servers, serviceTime, plan);
    }

    private ServiceTime serviceTime(Field field) {
        if (field.isScalar()) {
            return ServiceTime.constant(field.duration(0, true));
        }
        Map<String, Field> f = field.mapping(SERVICE_TIME);
        Distribution distribution = f.containsKey("distribution") ? f.get("distribution").choice(Distribution.class)
                : Distribution.CONSTANT;
        if (distribution == Distribution.LOGNORMAL) {
            if (f.containsKey("mean")) {
                throw f.get("mean").error("is not used by distribution lognormal (give median and sigma)");
            }
            long median = required(f, "median", field).duration(0, true);
            double sigma = required(f, "sigma", field).number(0, true);
            return ServiceTime.logNormal(median, sigma);
        }
        for (String unused : List.of("median", "sigma")) {
            if (f.containsKey(unused)) {
                throw f.get(unused).error("is only for distribution lognormal");
            }
        }
        long mean = required(f, "mean", field).duration(0, true);
        return distribution == Distribution.EXPONENTIAL ? ServiceTime.exponential(mean) : ServiceTime.constant(mean);
    }

    private StallPlan windows(Field field) {
        List<PlannedStall> windows = new ArrayList<>();
        long previousEnd = -1;
        for (Field item : field.sequence("stall windows like {at: 20s, duration: 5s}")) {
            Map<String, Field> f = item.mapping(WINDOW);
            Field at = required(f, "at", item);
            long atNanos = at.duration(0, false);
            long duration = required(f, "duration", item).duration(0, true);
            if (atNanos < previousEnd) {
                throw at.error("overlaps the stall before it (which ends at " + Durations.format(previousEnd)
                        + "); list stalls in order, apart");
            }
            previousEnd = atNanos + duration;
            windows.add(new PlannedStall(windows.size(), atNanos, duration));
        }
        return windows.isEmpty() ? null : StallPlan.explicit(windows, StallKind.BLOCK);
    }

    private StallPlan seededStalls(Field field, Map<String, Field> f, long horizonNanos) {
        long seed = f.containsKey("seed") ? f.get("seed").integer(Long.MIN_VALUE, Long.MAX_VALUE) : DEFAULT_SEED;
        long duration = f.containsKey("duration") ? f.get("duration").duration(0, true) : DEFAULT_STALL_NANOS;
        long minGap = DEFAULT_MIN_GAP_NANOS;
        if (f.containsKey("min_gap")) {
            minGap = f.get("min_gap").duration(duration, false);
        } else if (minGap < duration) {
            throw field.error("needs min_gap >= duration (" + Durations.format(duration) + "); the default min_gap is "
                    + Durations.format(DEFAULT_MIN_GAP_NANOS));
        }
        long meanInterval = DEFAULT_MEAN_INTERVAL_NANOS;
        if (f.containsKey("mean_interval")) {
            meanInterval = f.get("mean_interval").duration(minGap, false);
        } else if (meanInterval < minGap) {
            throw field.error("needs mean_interval >= min_gap (" + Durations.format(minGap)
                    + "); the default mean_interval is " + Durations.format(DEFAULT_MEAN_INTERVAL_NANOS));
        }
        StallKind kind = StallKind.BLOCK;
        if (f.containsKey("kind")) {
            Field k = f.get("kind");
            try {
                kind = StallKind.fromWireName(k.text().trim());
            } catch (RuntimeException e) {
                throw k.error("must be one of block, spin (got \"" + k.text().trim() + "\")");
            }
        }
        try {
            return StallPlan.seeded(new SeededPlanSpec(seed, meanInterval, duration, minGap, horizonNanos), kind);
        } catch (PlanException e) {
            throw field.error(e.getMessage());
        }
    }

    /** {@code metrics:}: {@code listen} (HOST:PORT or PORT) and {@code linger} (a duration, default 5 s). */
    private Scenario.Metrics metrics(Field field) {
        Map<String, Field> f = field.mapping(METRICS);
        Field listen = required(f, "listen", field);
        Scenario.Metrics metrics;
        try {
            metrics = Scenario.Metrics.listen(listen.string());
        } catch (IllegalArgumentException e) {
            throw listen.error(e.getMessage());
        }
        return f.containsKey("linger") ? metrics.linger(f.get("linger").duration(0, false)) : metrics;
    }

    private AgentStalls agent(Field field, long horizonNanos) {
        Map<String, Field> f = field.mapping(AGENT);
        List<URI> admins = admins(required(f, "admin", field));
        Path tokenFile = f.containsKey("token_file")
                ? TokenFile.path(baseDir, f.get("token_file").string().trim()) : null;
        Map<String, Field> plan = new LinkedHashMap<>(f);
        plan.remove("admin");
        plan.remove("token_file");
        return new AgentStalls(admins.get(0), tokenFile, seededStalls(field, plan, horizonNanos), admins);
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
    private TesterSpec tester(Field field, Map<String, Field> f) {
        Model model = f.containsKey("model") ? f.get("model").choice(Model.class) : Model.OPEN;
        String modelName = model.name().toLowerCase();
        for (String key : List.of("arrivals", "rate", "stages", "max_concurrency")) {
            if (model != Model.OPEN && f.containsKey(key)) {
                throw f.get(key).error("is only for model open (this is model " + modelName + ")");
            }
        }
        for (String key : List.of("pace", "on_late")) {
            if (model != Model.PACED && f.containsKey(key)) {
                throw f.get(key).error("is only for model paced (this is model " + modelName + ")");
            }
        }
        Arrivals arrivals = f.containsKey("arrivals") ? f.get("arrivals").choice(Arrivals.class) : Arrivals.POISSON;
        double rate = 0;
        List<Stage> stages = List.of();
        if (model == Model.OPEN) {
            if (f.containsKey("rate") && f.containsKey("stages")) {
                throw f.get("stages").error("replaces load.rate; give one of rate and stages");
            }
            if (f.containsKey("rate")) {
                rate = f.get("rate").number(0, true);
                if (rate > MAX_RATE) {
                    throw f.get("rate").error("must be <= " + (long) MAX_RATE + " (got " + Durations.plain(rate) + ")");
                }
            } else if (f.containsKey("stages")) {
                List<Stage> list = new ArrayList<>();
                for (Field item : f.get("stages").sequence("stages like {duration: 30s, target: 500}")) {
                    Map<String, Field> s = item.mapping(STAGE);
                    long d = required(s, "duration", item).duration(0, true);
                    Field t = required(s, "target", item);
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
        int maxConcurrency = f.containsKey("max_concurrency") ? (int) f.get("max_concurrency").integer(1, MAX_CONNECTIONS)
                : 0;
        int connections = f.containsKey("connections") ? (int) f.get("connections").integer(1, MAX_CONNECTIONS) : 1;
        long pace = model == Model.PACED ? required(f, "pace", field).duration(0, true) : 0;
        OnLate onLate = f.containsKey("on_late") ? f.get("on_late").choice(OnLate.class) : OnLate.CATCH_UP;
        long duration = 0;
        if (f.containsKey("duration")) {
            duration = f.get("duration").duration(0, true);
        } else if (stages.isEmpty()) {
            throw field.error("needs duration (how long the counted run lasts, e.g. 30s)");
        }
        long warmupRequests = 0;
        long warmupNanos = 0;
        if (f.containsKey("warmup")) {
            Field w = f.get("warmup");
            String text = w.text().trim();
            if (text.matches("-?[0-9_]+")) {
                warmupRequests = w.integer(0, Long.MAX_VALUE);
            } else {
                warmupNanos = w.duration(0, false);
            }
        }
        long grace = f.containsKey("grace") ? f.get("grace").duration(0, false) : DEFAULT_GRACE_NANOS;
        long seed = f.containsKey("seed") ? f.get("seed").integer(Long.MIN_VALUE, Long.MAX_VALUE) : DEFAULT_SEED;
        TesterSpec tester = switch (model) {
            case OPEN -> stages.isEmpty() ? TesterSpec.open(rate).duration(duration) : TesterSpec.ramp(0, stages);
            case CLOSED -> TesterSpec.closed(connections).duration(duration);
            case PACED -> TesterSpec.paced(connections, pace).onLate(onLate).duration(duration);
        };
        long precision = f.containsKey("precision") ? f.get("precision").duration(0, false)
                : Scheduler.DEFAULT_PRECISION_NANOS;
        if (precision > MAX_PRECISION_NANOS) {
            throw f.get("precision").error("must be <= 1s (how late a send may go; got "
                    + Durations.format(precision) + ")");
        }
        boolean testerPauses = !f.containsKey("tester_pauses") || f.get("tester_pauses").choice(OnOff.class) == OnOff.ON;
        return tester.arrivals(arrivals).maxConcurrency(maxConcurrency).warmupRequests(warmupRequests)
                .warmupDuration(warmupNanos).grace(grace).seed(seed).testerPauses(testerPauses).precision(precision);
    }

    /** Connections of the HTTP client (see {@link Scenario#connections()}). */
    private static int connections(Map<String, Field> load, TesterSpec tester) {
        if (tester.model() != Model.OPEN) {
            return tester.connections();
        }
        int cap = tester.maxConcurrency();
        int given = load.containsKey("connections") ? (int) load.get("connections").integer(1, MAX_CONNECTIONS)
                : cap > 0 ? cap : DEFAULT_OPEN_CONNECTIONS;
        return Math.max(given, cap);
    }

    private List<Journey> journeys(Field field) {
        List<Field> items = field.sequence("journeys");
        if (items.isEmpty()) {
            throw field.error("must have at least one journey (or leave journeys out to GET target.url)");
        }
        List<Journey> journeys = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            Field item = items.get(i);
            Map<String, Field> f = item.mapping(JOURNEY);
            String name = f.containsKey("name") ? f.get("name").string().trim() : "journey" + (i + 1);
            if (!names.add(name)) {
                throw (f.containsKey("name") ? f.get("name") : item).error("repeats the journey name \"" + name + "\"");
            }
            double weight = f.containsKey("weight") ? f.get("weight").number(0, true) : 1;
            DataTable data = null;
            if (f.containsKey("data")) {
                Field d = f.get("data");
                Path path = baseDir.resolve(d.string().trim()).normalize();
                try {
                    data = DataTable.read(path);
                } catch (NoSuchFileException e) {
                    throw d.error("names a file that does not exist: " + path);
                } catch (IOException e) {
                    throw d.error("cannot be read: " + path + " (" + e.getMessage() + ")");
                } catch (IllegalArgumentException e) {
                    throw d.error(": " + path.getFileName() + " " + e.getMessage());
                }
            }
            Field stepsField = required(f, "steps", item);
            List<Step> steps = new ArrayList<>();
            for (Field s : stepsField.sequence("steps like {request: GET /path}")) {
                steps.add(step(s, data));
            }
            if (steps.isEmpty()) {
                throw stepsField.error("must have at least one step");
            }
            journeys.add(new Journey(name, weight, data, List.copyOf(steps)));
        }
        return journeys;
    }

    private Step step(Field field, DataTable data) {
        Map<String, Field> f = field.mapping(STEP);
        Field request = required(f, "request", field);
        Matcher m = REQUEST.matcher(request.text());
        if (!m.matches()) {
            throw request.error("must be \"METHOD /path\", e.g. \"GET /score/${customer_id}\" (got \""
                    + request.text().trim() + "\")");
        }
        String method = m.group(1);
        if (!METHODS.contains(method)) {
            String hint = Suggest.nearest(method.toUpperCase(), METHODS).map(s -> "; did you mean " + s + "?").orElse("");
            throw request.error("has an unknown method \"" + method + "\" (one of " + String.join(", ", METHODS) + hint
                    + ")");
        }
        String pathText = m.group(2);
        if (!(pathText.startsWith("/") || pathText.startsWith("http://") || pathText.startsWith("https://"))) {
            throw request.error("needs a path starting with / (got \"" + pathText + "\")");
        }
        Template path = template(request, pathText, data);
        Map<String, Template> headers = new LinkedHashMap<>();
        if (f.containsKey("headers")) {
            for (Map.Entry<String, Field> e : f.get("headers").freeMapping("header names to values").entrySet()) {
                headers.put(e.getKey(), template(e.getValue(), e.getValue().text(), data));
            }
        }
        Template body = f.containsKey("body") ? template(f.get("body"), f.get("body").text(), data) : null;
        Check check = null;
        if (f.containsKey("check")) {
            Field c = f.get("check");
            Map<String, Field> cf = c.mapping(CHECK);
            Integer status = cf.containsKey("status") ? (int) cf.get("status").integer(100, 599) : null;
            Map<String, Template> json = new LinkedHashMap<>();
            if (cf.containsKey("json")) {
                for (Map.Entry<String, Field> e : cf.get("json").freeMapping("JSON field paths to values").entrySet()) {
                    json.put(e.getKey(), template(e.getValue(), e.getValue().text(), data));
                }
            }
            Template contains = cf.containsKey("body_contains")
                    ? template(cf.get("body_contains"), cf.get("body_contains").string(), data) : null;
            check = new Check(status, Map.copyOf(json), contains);
        }
        long think = f.containsKey("think") ? f.get("think").duration(0, false) : 0;
        String name = f.containsKey("name") ? f.get("name").string().trim() : method + " " + pathText;
        return new Step(name, method, path, Map.copyOf(headers), body, check, think);
    }

    private Template template(Field field, String text, DataTable data) {
        Template template;
        try {
            template = Template.parse(text);
        } catch (IllegalArgumentException e) {
            throw field.error(e.getMessage());
        }
        for (String variable : template.variables()) {
            if (data == null) {
                throw field.error("uses ${" + variable + "} but the journey has no data file (add data: file.csv)");
            }
            if (!data.hasColumn(variable)) {
                String hint = Suggest.nearest(variable, data.columns()).map(s -> "; did you mean " + s + "?").orElse("");
                throw field.error("uses ${" + variable + "}, which is not a column of " + data.file().getFileName()
                        + " (columns: " + String.join(", ", data.columns()) + hint + ")");
            }
        }
        return template;
    }

    // ---- helpers

    private static Field required(Map<String, Field> fields, String name, Field parent) {
        Field field = fields.get(name);
        if (field == null || field.isNull()) {
            String key = parent.key().isEmpty() ? name : parent.key() + "." + name;
            throw new ScenarioException(parent.where() + ": " + key + " is required");
        }
        return field;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
