package io.loadsmith.tester.scenario;

import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A parsed and validated scenario file (docs/scenarios.md). Every duration is in nanoseconds; fields
 * documented "null when absent" are optional keys without a default.
 *
 * @param name           the test's name (default: the file name without {@code .yaml})
 * @param file           where it was read from
 * @param sha256         hex SHA-256 of the file's bytes (results record it)
 * @param overrides      the {@code --set key=value} overrides applied, in order
 * @param target         a real URL or a simulation
 * @param stalls         an agent to arm for the counted run; null when absent
 * @param load           the tester
 * @param objectiveNanos counts above it are reported; null when absent
 * @param journeys       what each arrival does; empty means every request is a GET of target.url
 * @param slos           service level objectives checked after the run
 */
public record Scenario(String name, Path file, String sha256, List<String> overrides, Target target,
                       AgentStalls stalls, Load load, Long objectiveNanos, List<Journey> journeys,
                       List<Slo> slos) {

    /**
     * Exactly one of {@code url} and {@code simulate} is non-null.
     *
     * @param transport the HTTP client for a url ({@code target.transport}, default netty)
     * @param tls       trust for https:// urls ({@code target.tls}, default the JDK's trust store)
     * @param http      the HTTP version for a url ({@code target.http}, default 1.1; 2 runs on jetty)
     */
    public record Target(URI url, Simulation simulate, TransportOptions.Kind transport, TransportOptions.Tls tls,
                         TransportOptions.Http http) {
        public boolean simulated() {
            return simulate != null;
        }
    }

    /**
     * A simulated FIFO server on the virtual clock.
     *
     * @param servers      requests served at once (>= 1, default 1)
     * @param serviceTime  how long each request takes once served
     * @param stallWindows explicit windows (empty when none or when a plan is given)
     * @param stallPlan    a seeded plan instead of windows; null when absent
     */
    public record Simulation(int servers, ServiceTime serviceTime, List<StallWindow> stallWindows,
                             SeededStalls stallPlan) {
    }

    public enum Distribution { CONSTANT, EXPONENTIAL, LOGNORMAL }

    /**
     * A service-time model: {@code constant} (always {@code meanNanos}), {@code exponential} (mean
     * {@code meanNanos}) or {@code lognormal} (median {@code medianNanos}, shape {@code sigma}).
     * Fields that do not apply are 0.
     */
    public record ServiceTime(Distribution distribution, long meanNanos, long medianNanos, double sigma) {
        public static ServiceTime constant(long nanos) {
            return new ServiceTime(Distribution.CONSTANT, nanos, 0, 0);
        }
    }

    /** A stall window of a simulation: from {@code atNanos} after the start of the counted run, for {@code durationNanos}. */
    public record StallWindow(long atNanos, long durationNanos) {
    }

    /** The inputs of a seeded stall plan (docs/stall-plan.md); the horizon is the run's length. */
    public record SeededStalls(long seed, long meanIntervalNanos, long durationNanos, long minGapNanos,
                               StallKind kind) {
    }

    /**
     * An agent to arm at the start of the counted run.
     *
     * @param admin     the agent's admin URL
     * @param tokenFile a file holding the bearer token; null when absent
     * @param plan      the seeded plan to arm
     */
    public record AgentStalls(URI admin, Path tokenFile, SeededStalls plan) {
    }

    public enum Model { OPEN, CLOSED, PACED }

    public enum Arrivals { POISSON, CONSTANT }

    public enum OnLate { CATCH_UP, SKIP }

    /** A ramp stage of an open tester: the rate moves linearly to {@code targetPerSecond} over the stage. */
    public record Stage(long durationNanos, double targetPerSecond) {
    }

    /**
     * The tester.
     *
     * @param model          open, closed or paced (default open)
     * @param arrivals       open only: poisson (default) or constant
     * @param ratePerSecond  open with a fixed rate; 0 when stages are given or the model is not open
     * @param stages         open ramps; empty when a fixed rate is given
     * @param connections    closed and paced: connections (default 1); open: the pool size (default
     *                       max_concurrency, else 512)
     * @param paceNanos      paced only: time between iterations of one connection; 0 otherwise
     * @param onLate         paced only: catch_up (default) or skip
     * @param durationNanos  the counted run (with stages: their sum unless given)
     * @param warmupRequests requests sent first and not counted (0 when a warm-up duration is given)
     * @param warmupNanos    a warm-up time instead of a count (0 when a count is given)
     * @param maxConcurrency open only: most journeys active at once; 0 for no cap (default)
     * @param graceNanos     time after the last send to wait for answers (default 10s)
     * @param seed           seed of the schedule and every per-arrival draw (default 1)
     */
    public record Load(Model model, Arrivals arrivals, double ratePerSecond, List<Stage> stages, int connections,
                       long paceNanos, OnLate onLate, long durationNanos, long warmupRequests, long warmupNanos,
                       int maxConcurrency, long graceNanos, long seed) {
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
