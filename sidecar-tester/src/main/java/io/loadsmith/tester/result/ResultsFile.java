package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.loadsmith.stall.BuildInfo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole of {@code results.json}: see docs/results-json.md for every field and its unit.
 *
 * @param schema     always {@value #SCHEMA}
 * @param clock      offset of the agent's clock from the tester's and its uncertainty (0, 0 when one host)
 * @param runs       one entry per tester run
 * @param slos       the scenario's objectives and whether they passed
 * @param alignment  the stall-aligned plot of the runs with stalls; null when none had stalls
 * @param experiment what {@code loadsmith experiment} made of its runs; null for other commands
 * @param versions   the tester's version and commit, and the agent's when the runs talked to one
 * @param targetLost when and how the target stopped answering during the run; null (left out) when it did not
 * @param pauseAlignment the pause-aligned plot (sends around the start of the service pauses the runs met), in
 *                   the shape of {@code alignment} ({@code stall_ms}: the longest pause met); null when none met one
 */
public record ResultsFile(@JsonProperty(required = true) String schema, ClockInfo clock,
                          @JsonProperty(required = true) List<RunResult> runs, List<SloResult> slos,
                          Alignment alignment, Experiment experiment, Versions versions, TargetLost targetLost,
                          Alignment pauseAlignment) {

    /** The one schema this code writes and reads. */
    public static final String SCHEMA = "loadsmith/results/v1";

    public ResultsFile {
        runs = runs == null ? List.of() : List.copyOf(runs);
        slos = slos == null ? List.of() : List.copyOf(slos);
    }

    /** A results file of these runs, on one host (clock offset 0 ± 0), no SLOs yet, written by this tester. */
    public static ResultsFile of(List<RunResult> runs) {
        return new ResultsFile(SCHEMA, new ClockInfo(0, 0), runs, List.of(), null, null, Versions.ofTester(), null, null);
    }

    public ResultsFile withClock(ClockInfo value) {
        return new ResultsFile(schema, value, runs, slos, alignment, experiment, versions, targetLost, pauseAlignment);
    }

    public ResultsFile withSlos(List<SloResult> value) {
        return new ResultsFile(schema, clock, runs, value, alignment, experiment, versions, targetLost, pauseAlignment);
    }

    public ResultsFile withAlignment(Alignment value) {
        return new ResultsFile(schema, clock, runs, slos, value, experiment, versions, targetLost, pauseAlignment);
    }

    public ResultsFile withExperiment(Experiment value) {
        return new ResultsFile(schema, clock, runs, slos, alignment, value, versions, targetLost, pauseAlignment);
    }

    public ResultsFile withVersions(Versions value) {
        return new ResultsFile(schema, clock, runs, slos, alignment, experiment, value, targetLost, pauseAlignment);
    }

    public ResultsFile withTargetLost(TargetLost value) {
        return new ResultsFile(schema, clock, runs, slos, alignment, experiment, versions, value, pauseAlignment);
    }

    public ResultsFile withPauseAlignment(Alignment value) {
        return new ResultsFile(schema, clock, runs, slos, alignment, experiment, versions, targetLost, value);
    }

    /**
     * The target stopped answering during a real run: from {@code stoppedAnsweringS} seconds after sending
     * began (to the second) every request ended refused or reset.
     *
     * @param stoppedAnsweringS when the target stopped answering, seconds after sending began
     * @param gaveUp            true when the run stopped early after {@code giveUpAfterS} of that
     * @param giveUpAfterS      the scenario's {@code target.give_up_after}, seconds
     * @param errors            the run's errors by class ({@code refused}, {@code reset}, ...), those with none left out
     */
    public record TargetLost(double stoppedAnsweringS, boolean gaveUp, double giveUpAfterS, Map<String, Long> errors) {
        public TargetLost {
            errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
        }
    }

    /**
     * What wrote the file: the tester's version and commit, and the agent's as its {@code GET /health}
     * answered (null, and left out, when no run talked to an agent).
     */
    public record Versions(@JsonProperty(required = true) String tester, String testerCommit, String agent,
                           String agentCommit) {

        /** This tester's version and commit, no agent. */
        public static Versions ofTester() {
            BuildInfo build = BuildInfo.current();
            return new Versions(build.version(), build.commit(), null, null);
        }

        /** The same with the agent's version and commit. */
        public Versions withAgent(String version, String commit) {
            return new Versions(tester, testerCommit, version, commit);
        }
    }

    /** Offset of the agent's clock (server − tester) and its uncertainty, in nanoseconds. */
    public record ClockInfo(long offsetNs, long uncertaintyNs) {
    }

    /**
     * One objective: its expression as written, the measured value, pass or fail. A latency SLO
     * ({@code p99 < 500ms}) carries {@code value_ms} and a null {@code value_percent}; a share SLO
     * ({@code above(10ms) < 1%}, {@code errors < 0.1%}) carries {@code value_percent} and a null
     * {@code value_ms}. Both keys are always written.
     */
    public record SloResult(@JsonProperty(required = true) String expr,
                            @JsonInclude(JsonInclude.Include.ALWAYS) Double valueMs,
                            @JsonInclude(JsonInclude.Include.ALWAYS) Double valuePercent,
                            boolean pass) {
    }
}
