package io.loadsmith.tester.scenario;

import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.grpc.GrpcMethod;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.grpc.ProtoSet;
import io.loadsmith.tester.profile.ReplayPlan;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A parsed and validated scenario file (docs/scenarios.md), in the engine's own types. Every duration is in
 * nanoseconds; fields documented "null when absent" are optional keys without a default.
 *
 * @param name           the test's name (default: the file name without {@code .yaml})
 * @param file           where it was read from
 * @param sha256         hex SHA-256 of the file's bytes (results record it)
 * @param overrides      the {@code --set key=value} overrides applied, in order
 * @param target         a real URL or a simulation
 * @param stalls         an agent to arm for the counted run; null when absent
 * @param tester         the tester: {@code load} and {@code objective}
 * @param connections    connections of the HTTP client: closed and paced, the tester's; open,
 *                       {@code load.connections} (default {@code max_concurrency}, else 512) and at least
 *                       {@code max_concurrency}
 * @param journeys       what each arrival does; empty means every request is a GET of target.url
 * @param slos           service level objectives checked after the run
 * @param metrics        where to serve live metrics during the run ({@code metrics:}); null when absent
 * @param testerPauses   whether a real run observes the tester's own pauses ({@code load.tester_pauses},
 *                       docs/pauses.md); on by default
 */
public record Scenario(String name, Path file, String sha256, List<String> overrides, Target target,
                       DeclaredStalls stalls, TesterSpec tester, int connections, List<JourneySpec> journeys,
                       List<Slo> slos, Metrics metrics, boolean testerPauses) {

    /**
     * The live metrics endpoint of a real run (docs/watching.md): {@code metrics.listen} and
     * {@code metrics.linger}.
     *
     * @param host        the address to listen on (default 127.0.0.1)
     * @param port        its port, 0 to 65535 (0: any free port)
     * @param lingerNanos how long the endpoint stays up after the run's files are written (default 5 s)
     */
    public record Metrics(String host, int port, long lingerNanos) {

        /** The default {@code metrics.linger}: a scrape every few seconds still sees the final figures. */
        public static final long DEFAULT_LINGER_NANOS = 5_000_000_000L;
        public static final String DEFAULT_HOST = "127.0.0.1";

        /**
         * {@code HOST:PORT} or {@code PORT} (on 127.0.0.1), as {@code --metrics} and {@code metrics.listen}
         * take it, with the default linger.
         *
         * @throws IllegalArgumentException saying what is wrong
         */
        public static Metrics listen(String text) {
            String value = text.strip();
            int colon = value.lastIndexOf(':');
            String host = colon < 0 ? DEFAULT_HOST : value.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty()) {
                throw new IllegalArgumentException("must be HOST:PORT or PORT, e.g. 127.0.0.1:9464 (got \"" + text + "\")");
            }
            String portText = value.substring(colon + 1);
            int port;
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be HOST:PORT or PORT, e.g. 127.0.0.1:9464, the port a number from 0 "
                        + "to 65535 (got \"" + text + "\")");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("must have a port from 0 to 65535 (got " + port + ")");
            }
            return new Metrics(host, port, DEFAULT_LINGER_NANOS);
        }

        /** The same endpoint, staying up {@code nanos} after the run. */
        public Metrics linger(long nanos) {
            return new Metrics(host, port, nanos);
        }
    }

    /** The same scenario with its {@code metrics:} replaced (null: none). */
    public Scenario withMetrics(Metrics value) {
        return new Scenario(name, file, sha256, overrides, target, stalls, tester, connections, journeys, slos, value, testerPauses);
    }

    /**
     * Exactly one of {@code url} and {@code simulate} is non-null.
     *
     * @param transport the HTTP client for a url ({@code target.transport}, default netty)
     * @param tls       trust for https:// urls ({@code target.tls}, default the JDK's trust store)
     * @param http      the HTTP version for a url ({@code target.http}, default 1.1; 2 runs on jetty)
     * @param loops     event loops of the netty transport ({@code target.loops}, default 1)
     * @param giveUpAfterNanos how long a real run goes on with nothing but refused or reset connections
     *                  before it stops ({@code target.give_up_after}, default 10 s)
     * @param grpc      the services of a {@code grpc://} or {@code grpcs://} url ({@code target.grpc}: a
     *                  descriptor set or reflection, docs/grpc.md); null for any other target
     */
    public record Target(URI url, Simulation.SimulatedTarget simulate, TransportOptions.Kind transport, TransportOptions.Tls tls,
                         TransportOptions.Http http, int loops, long giveUpAfterNanos, ProtoSet grpc) {
        public boolean simulated() {
            return simulate != null;
        }
    }

    /**
     * An agent to arm at the start of the counted run.
     *
     * @param admin     the agent's admin URL (the first of {@code admins})
     * @param tokenFile a file holding the bearer token; null when absent
     * @param plan      the plan to arm: seeded (its horizon is the counted run), or a replay's explicit one
     * @param admins    every admin URL given (one per replica; a DNS name may still stand for several)
     * @param replay    the pause profile replayed ({@code stalls.replay}) with what each window replays; null
     *                  for a seeded plan
     */
    public record DeclaredStalls(URI admin, Path tokenFile, StallPlan plan, List<URI> admins, ReplayPlan replay) {

        public DeclaredStalls {
            admins = admins == null || admins.isEmpty() ? List.of(admin) : List.copyOf(admins);
        }

        /** One agent, a seeded plan. */
        public DeclaredStalls(URI admin, Path tokenFile, StallPlan plan) {
            this(admin, tokenFile, plan, List.of(admin), null);
        }
    }

    /** The transport a real run uses: {@code target.transport}, {@code target.tls} and
     * {@code target.http}, a pool of {@link #connections}. */
    public TransportOptions transport() {
        return TransportOptions.connections(connections).withKind(target.transport()).withTls(target.tls())
                .withHttp(target.http()).withLoops(target.loops());
    }

    /** What each arrival sends: the journeys, or one GET of {@code baseUri}. */
    public RequestSource source(URI baseUri) {
        return journeys.isEmpty() ? RequestSource.get(baseUri) : new ScenarioSource(baseUri, journeys, tester.seed());
    }

    /**
     * A journey: a weighted sequence of steps, one arrival each.
     *
     * @param data rows for {@code ${column}} placeholders; null when the journey has no data file
     */
    public record JourneySpec(String name, double weight, DataTable data, List<Step> steps) {
    }

    /**
     * One request of a journey.
     *
     * @param name       the step's name in results (default: {@code METHOD path})
     * @param method     HTTP method
     * @param path       path and query appended to target.url (a template)
     * @param headers    header templates
     * @param body       body template; null when none
     * @param check      what the response must satisfy; null means status 2xx or 3xx (a gRPC call: status OK)
     * @param thinkNanos pause before this step after the previous step's end (default 0)
     * @param grpc       the call of a {@code GRPC} step (then {@code method} is {@code POST}, {@code path} the
     *                   method's path and {@code body} null); null for an HTTP request
     */
    public record Step(String name, String method, Template path, Map<String, Template> headers, Template body,
                       Check check, long thinkNanos, GrpcCall grpc) {
    }

    /**
     * The unary call of a {@code GRPC pkg.Service/Method} step (docs/grpc.md).
     *
     * @param method        the method, from the target's descriptor set
     * @param metadata      metadata templates by lower-case key, sent as request header fields
     * @param deadlineNanos the step's {@code deadline} (sent as {@code grpc-timeout}), 0 for none
     * @param bodies        the framed request message: one when the body has no placeholder, else one per row of
     *                      the journey's data, each mapped from JSON once, when the scenario is read
     */
    public record GrpcCall(GrpcMethod method, Map<String, Template> metadata, long deadlineNanos, List<byte[]> bodies) {

        /** The framed request message of data row {@code row} (-1: none). */
        public byte[] body(int row) {
            return bodies.size() == 1 ? bodies.get(0) : bodies.get(row);
        }
    }

    /**
     * @param status       the status expected; null means any 2xx or 3xx
     * @param json         dotted field path (a.b.0.c) to expected value (compared as text); of a gRPC call, the
     *                     answer message as JSON (proto field names)
     * @param bodyContains text the body must contain; null when not checked
     * @param grpcStatus   the gRPC status expected of a gRPC call ({@code grpc_status}, default OK); null for HTTP
     */
    public record Check(Integer status, Map<String, Template> json, Template bodyContains, GrpcStatus grpcStatus) {
    }
}
