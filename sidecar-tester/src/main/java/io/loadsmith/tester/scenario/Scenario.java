package io.loadsmith.tester.scenario;

import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
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
 */
public record Scenario(String name, Path file, String sha256, List<String> overrides, Target target,
                       AgentStalls stalls, TesterSpec tester, int connections, List<Journey> journeys,
                       List<Slo> slos) {

    /**
     * Exactly one of {@code url} and {@code simulate} is non-null.
     *
     * @param transport the HTTP client for a url ({@code target.transport}, default netty)
     * @param tls       trust for https:// urls ({@code target.tls}, default the JDK's trust store)
     * @param http      the HTTP version for a url ({@code target.http}, default 1.1; 2 runs on jetty)
     * @param loops     event loops of the netty transport ({@code target.loops}, default 1)
     * @param giveUpAfterNanos how long a real run goes on with nothing but refused or reset connections
     *                  before it stops ({@code target.give_up_after}, default 10 s)
     */
    public record Target(URI url, Simulation.Target simulate, TransportOptions.Kind transport, TransportOptions.Tls tls,
                         TransportOptions.Http http, int loops, long giveUpAfterNanos) {
        public boolean simulated() {
            return simulate != null;
        }
    }

    /**
     * An agent to arm at the start of the counted run.
     *
     * @param admin     the agent's admin URL (the first of {@code admins})
     * @param tokenFile a file holding the bearer token; null when absent
     * @param plan      the seeded plan to arm (its horizon is the counted run)
     * @param admins    every admin URL given (one per replica; a DNS name may still stand for several)
     */
    public record AgentStalls(URI admin, Path tokenFile, StallPlan plan, List<URI> admins) {

        public AgentStalls {
            admins = admins == null || admins.isEmpty() ? List.of(admin) : List.copyOf(admins);
        }

        /** One agent. */
        public AgentStalls(URI admin, Path tokenFile, StallPlan plan) {
            this(admin, tokenFile, plan, List.of(admin));
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
    public record Journey(String name, double weight, DataTable data, List<Step> steps) {
    }

    /**
     * One request of a journey.
     *
     * @param name       the step's name in results (default: {@code METHOD path})
     * @param method     HTTP method
     * @param path       path and query appended to target.url (a template)
     * @param headers    header templates
     * @param body       body template; null when none
     * @param check      what the response must satisfy; null means status 2xx or 3xx
     * @param thinkNanos pause before this step after the previous step's end (default 0)
     */
    public record Step(String name, String method, Template path, Map<String, Template> headers, Template body,
                       Check check, long thinkNanos) {
    }

    /**
     * @param status       the status expected; null means any 2xx or 3xx
     * @param json         dotted field path (a.b.0.c) to expected value (compared as text)
     * @param bodyContains text the body must contain; null when not checked
     */
    public record Check(Integer status, Map<String, Template> json, Template bodyContains) {
    }
}
