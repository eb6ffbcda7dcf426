package io.loadsmith.agent;

import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.observe.PauseObserver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The agent's options, parsed from the string after {@code -javaagent:loadsmith-agent.jar=} or after
 * {@code attach PID}. Options are {@code key=value} pairs separated by commas; a list option
 * ({@code targets}) takes further values as comma-separated words without {@code =}
 * ({@code targets=jetty12,netty}) or joined with {@code +} ({@code targets=jetty12+netty}).
 * See {@link LoadsmithAgent} for what each option means. Immutable; {@link #parse} throws
 * {@link IllegalArgumentException} with a message that names the option.
 */
public final class AgentOptions {

    /** Every target the agent knows, in the order {@code /health} lists them. */
    public static final List<String> KNOWN_TARGETS =
            List.of("jetty12", "jetty9", "servlet", "tomcat", "netty", "undertow", "jdkhttp", "grpc", "method");

    /** Token value that asks the agent to write a random token to {@link #tokenFile()}. */
    public static final String RANDOM_TOKEN = "random";

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 7070;

    /** Every option's name, for the messages that list them. */
    static final String OPTION_NAMES = "admin, token, token-file, targets, method, log, observe, sleeper, jfr-memory, trace-header, replica";

    /** What a {@code replica=} name may hold: it goes into a header value, before its first {@code ;}. */
    static final String REPLICA_PATTERN = "[A-Za-z0-9._:-]+";

    /** Log thresholds of the {@code log=} option, quietest first. */
    public enum LogLevel { OFF, ERROR, WARNING, INFO, DEBUG }

    /**
     * When the agent observes real pauses ({@code observe=}): {@code ARMED} (the default; {@code on} is
     * accepted for it) from an arm to the end of that run plus a grace, {@code ALWAYS} from start to exit,
     * {@code OFF} never.
     */
    public enum Observe { ARMED, ALWAYS, OFF }

    private final String adminHost;
    private final int adminPort;
    private final String token;
    private final Path tokenFile;
    private final boolean randomToken;
    private final boolean autoTargets;
    private final Set<String> targets;
    private final List<MethodRef> methods;
    private final LogLevel logLevel;
    private final Observe observe;
    private final int sleeperParkMillis;
    private final boolean smallJfrMemory;
    private final boolean traceHeader;
    private final String replica;

    private AgentOptions(String adminHost, int adminPort, String token, Path tokenFile, boolean randomToken,
                         boolean autoTargets, Set<String> targets, List<MethodRef> methods, LogLevel logLevel,
                         Observe observe, int sleeperParkMillis, boolean smallJfrMemory, boolean traceHeader, String replica) {
        this.adminHost = adminHost;
        this.adminPort = adminPort;
        this.token = token;
        this.tokenFile = tokenFile;
        this.randomToken = randomToken;
        this.autoTargets = autoTargets;
        this.targets = Collections.unmodifiableSet(targets);
        this.methods = List.copyOf(methods);
        this.logLevel = logLevel;
        this.observe = observe;
        this.sleeperParkMillis = sleeperParkMillis;
        this.smallJfrMemory = smallJfrMemory;
        this.traceHeader = traceHeader;
        this.replica = replica;
    }

    /** A class and a method name the user asked to gate ({@code method=com.acme.Foo#bar}). */
    public record MethodRef(String className, String methodName) {
        @Override
        public String toString() {
            return className + "#" + methodName;
        }
    }

    /** Parses an option string; null or blank gives the defaults. */
    public static AgentOptions parse(String text) {
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        String token = null;
        Path tokenFile = null;
        boolean auto = true;
        Set<String> targets = new LinkedHashSet<>();
        List<MethodRef> methods = new ArrayList<>();
        LogLevel level = LogLevel.INFO;
        Observe observe = Observe.ARMED;
        int sleeperParkMillis = PauseObserver.DEFAULT_SLEEPER_PARK_MILLIS;
        boolean smallJfrMemory = true;
        boolean traceHeader = false;
        String replica = null;
        String listKey = null;
        if (text != null && !text.isBlank()) {
            for (String part : text.split(",")) {
                String item = part.strip();
                if (item.isEmpty()) {
                    continue;
                }
                int eq = item.indexOf('=');
                if (eq < 0) {
                    if ("targets".equals(listKey)) {
                        auto = addTargets(item, targets, auto);
                        continue;
                    }
                    throw new IllegalArgumentException("option \"" + item + "\": expected key=value (options: " + OPTION_NAMES + ")");
                }
                String key = item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                String value = item.substring(eq + 1).strip();
                listKey = key;
                switch (key) {
                    case "admin" -> {
                        int colon = value.lastIndexOf(':');
                        if (colon <= 0 || colon == value.length() - 1) {
                            throw new IllegalArgumentException("option admin: expected HOST:PORT, e.g. admin=127.0.0.1:7070 (got \"" + value + "\")");
                        }
                        host = value.substring(0, colon);
                        if (host.startsWith("[") && host.endsWith("]")) {
                            host = host.substring(1, host.length() - 1);
                        }
                        try {
                            port = Integer.parseInt(value.substring(colon + 1));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("option admin: port must be a number from 0 to 65535 (got \"" + value.substring(colon + 1) + "\")");
                        }
                        if (port < 0 || port > 65535) {
                            throw new IllegalArgumentException("option admin: port must be a number from 0 to 65535 (got " + port + ")");
                        }
                    }
                    case "token" -> {
                        if (value.isEmpty()) {
                            throw new IllegalArgumentException("option token: must not be empty (use token=random to have one generated)");
                        }
                        token = value;
                    }
                    case "token-file" -> {
                        if (value.isEmpty()) {
                            throw new IllegalArgumentException("option token-file: expected a path");
                        }
                        tokenFile = TokenFile.path(value);
                    }
                    case "targets" -> {
                        auto = false;
                        targets.clear();
                        auto = addTargets(value, targets, auto);
                    }
                    case "method" -> methods.add(parseMethod(value));
                    case "log" -> {
                        try {
                            level = LogLevel.valueOf(value.toUpperCase(Locale.ROOT));
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException("option log: expected off, error, warning, info or debug (got \"" + value + "\")");
                        }
                    }
                    case "observe" -> observe = switch (value.toLowerCase(Locale.ROOT)) {
                        case "armed", "on" -> Observe.ARMED;
                        case "always" -> Observe.ALWAYS;
                        case "off" -> Observe.OFF;
                        default -> throw new IllegalArgumentException("option observe: expected armed, always or off"
                                + " (on is armed; got \"" + value + "\")");
                    };
                    case "jfr-memory" -> smallJfrMemory = switch (value.toLowerCase(Locale.ROOT)) {
                        case "small" -> true;
                        case "jdk" -> false;
                        default -> throw new IllegalArgumentException("option jfr-memory: expected small or jdk (got \"" + value + "\")");
                    };
                    case "trace-header" -> traceHeader = switch (value.toLowerCase(Locale.ROOT)) {
                        case "on" -> true;
                        case "off" -> false;
                        default -> throw new IllegalArgumentException("option trace-header: expected on or off (got \"" + value + "\")");
                    };
                    case "replica" -> {
                        if (!value.matches(REPLICA_PATTERN)) {
                            throw new IllegalArgumentException("option replica: expected a name of letters, digits, '.', '_', ':' and '-' (got \"" + value + "\")");
                        }
                        replica = value;
                    }
                    case "sleeper" -> sleeperParkMillis = parseSleeperPark(value);
                    default -> throw new IllegalArgumentException("unknown option \"" + key + "\" (options: " + OPTION_NAMES + ")");
                }
            }
        }
        boolean random = RANDOM_TOKEN.equals(token);
        if (random && tokenFile == null) {
            tokenFile = Paths.get(System.getProperty("user.home"), ".loadsmith", "token");
        }
        if (token != null && !random && tokenFile != null) {
            throw new IllegalArgumentException("options token and token-file: give one of them (or token=random,token-file=PATH)");
        }
        if (!auto && targets.isEmpty()) {
            throw new IllegalArgumentException("option targets: expected auto or a list of " + String.join(", ", KNOWN_TARGETS));
        }
        if (!methods.isEmpty() && !auto) {
            targets.add("method");
        }
        if (token == null && tokenFile == null && !isLoopback(host)) {
            throw new IllegalArgumentException("option admin: " + host + " is not a loopback address; "
                    + "binding the admin API elsewhere needs a token (token=, token-file= or token=random)");
        }
        return new AgentOptions(host, port, random ? null : token, tokenFile, random, auto, targets, methods, level, observe,
                sleeperParkMillis, smallJfrMemory, traceHeader, replica);
    }

    /**
     * {@code sleeper=5ms}: whole milliseconds, from the observer's shortest park to its longest (compile-time
     * constants, so that parsing loads no class of the observer on the host's thread).
     */
    private static int parseSleeperPark(String value) {
        int min = PauseObserver.DEFAULT_SLEEPER_PARK_MILLIS;
        int max = PauseObserver.MAX_SLEEPER_PARK_MILLIS;
        String expected = "option sleeper: expected a park from " + min + "ms to " + max + "ms, e.g. sleeper=5ms (got \"" + value + "\")";
        String lower = value.toLowerCase(Locale.ROOT);
        if (!lower.matches("[0-9]{1,4}ms")) {
            throw new IllegalArgumentException(expected);
        }
        int millis = Integer.parseInt(lower.substring(0, lower.length() - 2));
        if (millis < min || millis > max) {
            throw new IllegalArgumentException(expected);
        }
        return millis;
    }

    private static boolean addTargets(String value, Set<String> targets, boolean auto) {
        for (String name : value.split("\\+")) {
            String target = name.strip().toLowerCase(Locale.ROOT);
            if (target.equals("auto")) {
                auto = true;
                continue;
            }
            if (!KNOWN_TARGETS.contains(target)) {
                throw new IllegalArgumentException("option targets: unknown target \"" + name.strip() + "\" (known: auto, "
                        + String.join(", ", KNOWN_TARGETS) + ")");
            }
            targets.add(target);
        }
        return auto;
    }

    private static MethodRef parseMethod(String value) {
        int hash = value.indexOf('#');
        if (hash <= 0 || hash == value.length() - 1 || value.indexOf('#', hash + 1) >= 0) {
            throw new IllegalArgumentException("option method: expected a class and a method, e.g. method=com.acme.Foo#bar (got \"" + value + "\")");
        }
        String className = value.substring(0, hash);
        String methodName = value.substring(hash + 1);
        if (!className.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")
                || !methodName.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*")) {
            throw new IllegalArgumentException("option method: \"" + value + "\" is not a binary class name and a method name, e.g. com.acme.Foo$Inner#bar");
        }
        return new MethodRef(className, methodName);
    }

    static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!host.matches("[0-9.]+") && !host.contains(":")) {
            return false; // a name we will not resolve here
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Host the admin API binds to; {@code 127.0.0.1} unless {@code admin=} says otherwise. */
    public String adminHost() { return adminHost; }

    /** Port the admin API binds to; {@code 7070} by default, {@code 0} picks a free one. */
    public int adminPort() { return adminPort; }

    /** The bearer token given inline, or null. */
    public String token() { return token; }

    /** File that holds the token (read, or written when {@link #randomToken()}), or null. */
    public Path tokenFile() { return tokenFile; }

    /** True when the agent must generate a token and write it to {@link #tokenFile()}. */
    public boolean randomToken() { return randomToken; }

    /** True for {@code targets=auto} (the default): every target whose library is present. */
    public boolean autoTargets() { return autoTargets; }

    /** The targets named explicitly (empty with {@code targets=auto}). */
    public Set<String> targets() { return targets; }

    /** The methods named with {@code method=}, in the order given. */
    public List<MethodRef> methods() { return methods; }

    /** The {@code log=} threshold; INFO by default. */
    public LogLevel logLevel() { return logLevel; }

    /**
     * When the agent observes real pauses and serves them at {@code GET /pauses}: {@link Observe#ARMED} by
     * default ({@code observe=armed} or {@code on}), {@code always} or {@code off}.
     */
    public Observe observe() { return observe; }

    /** How long the pause observer's sleeper parks ({@code sleeper=}); 1 ms by default. */
    public Duration sleeperPark() { return Duration.ofMillis(sleeperParkMillis); }

    /**
     * True ({@code jfr-memory=small}, the default) when the pause observer sizes JFR's buffers small before
     * it first starts JFR (stall-service's {@code JfrMemory}); false ({@code jfr-memory=jdk}): the JDK's sizes.
     */
    public boolean smallJfrMemory() { return smallJfrMemory; }

    /** True ({@code trace-header=on}; off by default) when gated responses carry the {@code Loadsmith-Replica} header. */
    public boolean traceHeader() { return traceHeader; }

    /**
     * This replica's id ({@code replica=NAME}); by default the host's name and the process id,
     * {@code HOST-PID} (the host name from {@code HOSTNAME}, which a Kubernetes pod sets to its name, else
     * the JDK's local host name), with any character outside {@value #REPLICA_PATTERN} made {@code _}.
     */
    public String replica() {
        if (replica != null) {
            return replica;
        }
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        }
        return (host.strip() + "-" + ProcessHandle.current().pid()).replaceAll("[^A-Za-z0-9._:-]", "_");
    }

    /** True when target {@code name} is switched on by these options. */
    public boolean enables(String name) {
        if (name.equals("method")) {
            return !methods.isEmpty();
        }
        return autoTargets || targets.contains(name);
    }
}
