package io.loadsmith.tester.session;

import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.align.PauseAlignment;
import io.loadsmith.tester.align.AlignedPause;
import io.loadsmith.tester.align.RunAlignment;
import io.loadsmith.tester.align.ScatterPoint;
import io.loadsmith.tester.align.StallAlignment;
import io.loadsmith.tester.align.StallCount;
import io.loadsmith.tester.align.StallSummary;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles one {@code results.json} from several runs, each in its own sub-folder: the engine's runs (with
 * the run's folder prefixed to {@code requests_log} and {@code hlog}, and {@code dir} and {@code arm}, its
 * line), for every run with stalls its {@code stalls[]}, {@code stall_summary}, clock offset and run id; the
 * top-level {@code clock} and {@code alignment} (one series per line: a run, or several runs of one tester
 * merged). docs/alignment.md shows the shapes. Milliseconds are rounded to the microsecond.
 */
public final class AlignedResults {

    private AlignedResults() {
    }

    /**
     * One run in the results.
     *
     * @param runDir  its folder, inside the results folder
     * @param outcome what it produced
     * @param line    the line it is drawn on in the alignment plot (runs on one line are merged)
     */
    public record Entry(Path runDir, StalledRun.StalledResult outcome, String line) {
    }

    /** One run's alignment, under its name. */
    public record NamedRun(String run, RunAlignment alignment) {
    }

    /** The results of {@code entries}, written to {@code outDir}. */
    public static ResultsFile build(Path outDir, List<Entry> entries) {
        return build(outDir, entries, List.of());
    }

    /** The results of {@code entries} with the SLO verdicts of {@code loadsmith run}. */
    public static ResultsFile build(Path outDir, List<Entry> entries, List<ResultsFile.SloResult> slos) {
        List<RunResult> runs = new ArrayList<>();
        ClockOffset clock = ClockOffset.SAME_CLOCK;
        ResultsFile.Versions versions = ResultsFile.Versions.ofTester();
        Map<String, List<RunAlignment>> lines = new LinkedHashMap<>();
        for (Entry entry : entries) {
            StalledRun.StalledResult outcome = entry.outcome();
            if (outcome.armed() != null && clock == ClockOffset.SAME_CLOCK) {
                clock = outcome.offset();
            }
            if (versions.agent() == null && outcome.versions().agent() != null) {
                versions = outcome.versions();
            }
            String folder = outDir.toAbsolutePath().normalize().relativize(entry.runDir().toAbsolutePath().normalize())
                    .toString().replace('\\', '/');
            RunResult.Aligned aligned = null;
            if (outcome.alignment() != null) {
                aligned = new RunResult.Aligned(stalls(outcome.alignment(), outcome.replicas(), outcome),
                        summary(outcome.alignment().summary(), outcome.missing()), outcome.offset().offsetNanos(),
                        outcome.offset().uncertaintyNanos(), outcome.offset().forAlignment().offsetNanos(),
                        outcome.armed().runId());
                lines.computeIfAbsent(entry.line(), k -> new ArrayList<>()).add(outcome.alignment());
            }
            RunResult run = outcome.result().withAlignment(folder, entry.line(), aligned);
            runs.add(run);
        }
        List<NamedRun> named = new ArrayList<>();
        for (Map.Entry<String, List<RunAlignment>> line : lines.entrySet()) {
            RunAlignment merged = line.getValue().size() == 1 ? line.getValue().get(0)
                    : RunAlignment.merge(line.getValue(), StallAlignment.DEFAULT_SCATTER_CAP);
            named.add(new NamedRun(line.getKey(), merged));
        }
        return ResultsFile.of(runs).withSlos(slos)
                .withClock(new ResultsFile.ClockInfo(clock.offsetNanos(), clock.uncertaintyNanos()))
                .withAlignment(named.isEmpty() ? null : alignment(named)).withVersions(versions)
                .withPauseAlignment(pauseAlignment(entries));
    }

    /**
     * The top-level {@code pause_alignment}: sends per bin around the start of each service pause met, one
     * series per line (its runs averaged, weighted by the pauses each met), on bins for the longest pause met
     * in any run; null when no run met a pause. Reads the runs' request logs again.
     */
    static Alignment pauseAlignment(List<Entry> entries) {
        List<AlignedPause> met = new ArrayList<>();
        for (Entry entry : entries) {
            RunResult result = entry.outcome().result();
            if (result.servicePauses() != null) {
                met.addAll(ServicePauses.windows(result, result.servicePauses().stream().filter(RunResult.PauseRow::met)
                        .toList()));
            }
        }
        AlignedBins bins = PauseAlignment.binsFor(met);
        if (bins == null) {
            return null;
        }
        Map<String, double[]> weighted = new LinkedHashMap<>();
        Map<String, Integer> pausesMet = new LinkedHashMap<>();
        for (Entry entry : entries) {
            RunResult result = entry.outcome().result();
            if (result.servicePauses() == null) {
                continue;
            }
            PauseAlignment aligned;
            try {
                aligned = PauseAlignment.alignLog(entry.runDir().resolve(RequestLog.FILE_NAME),
                        ServicePauses.windows(result, result.servicePauses()),
                        Math.round(result.tester().durationMs() * 1_000_000.0), bins, ServicePauses.replicaOf(result));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the request log of " + entry.runDir(), e);
            }
            int runMet = aligned.summary().pausesMet();
            double[] sums = weighted.computeIfAbsent(entry.line(), k -> new double[bins.binCount()]);
            double[] perBin = aligned.sendsPerBin();
            for (int b = 0; b < sums.length; b++) {
                sums[b] += perBin[b] * runMet;
            }
            pausesMet.merge(entry.line(), runMet, Integer::sum);
        }
        List<Alignment.Series> series = new ArrayList<>();
        for (Map.Entry<String, double[]> line : weighted.entrySet()) {
            int lineMet = pausesMet.get(line.getKey());
            List<Double> perBin = new ArrayList<>();
            for (double sum : line.getValue()) {
                perBin.add(lineMet == 0 ? 0.0 : round(sum / lineMet, 4));
            }
            series.add(new Alignment.Series(line.getKey(), lineMet, perBin));
        }
        return new Alignment(ms(bins.stallNanos()), ms(bins.binNanos()), ms(bins.fromNanos()), ms(bins.toNanos()),
                series, List.of());
    }

    /** A run's {@code stalls[]}. */
    static List<RunResult.StallRow> stalls(RunAlignment alignment) {
        return stalls(alignment, null, null);
    }

    /**
     * A run's {@code stalls[]}, each with the address of its replica when there are several, and the pause it
     * replays in a replayed plan (by the agent's stall index: stall i is the plan's window i).
     */
    static List<RunResult.StallRow> stalls(RunAlignment alignment, List<Replicas.Replica> replicas,
                                           StalledRun.StalledResult outcome) {
        List<RunResult.StallRow> rows = new ArrayList<>();
        for (StallCount c : alignment.stalls()) {
            String replica = replicas == null || c.replica() < 0 ? null : replicas.get(c.replica()).address();
            rows.add(new RunResult.StallRow(c.index(), c.startNanos(), c.endNanos(), c.held(), c.sentDuring(),
                    c.intendedDuring(), c.inFlightAtStart(), c.overlapping(), c.met(), replica,
                    replayedOf(outcome, c.index())));
        }
        return rows;
    }

    /** What the window of the agent's stall {@code index} replays; null for a seeded plan (or none) or past its end. */
    static RunResult.Replayed replayedOf(StalledRun.StalledResult outcome, int index) {
        List<RunResult.Replayed> replayed = outcome == null ? null : outcome.replayed();
        return replayed == null || index < 0 || index >= replayed.size() ? null : replayed.get(index);
    }

    /** A run's {@code stall_summary}, with the planned stalls that did not happen. */
    static RunResult.StallTotals summary(StallSummary s, List<Integer> missing) {
        return new RunResult.StallTotals(s.stallsMet(), s.sentDuringTotal(), round(s.overlappingShare(), 6),
                s.p99CanSeeStalls(), s.sentRequests(), s.overlappingRequests(), missing);
    }

    /**
     * The top-level {@code alignment} of several runs drawn on the same bins.
     *
     * @throws IllegalArgumentException if the runs were binned differently
     */
    public static Alignment alignment(List<NamedRun> runs) {
        AlignedBins bins = runs.get(0).alignment().bins();
        List<Alignment.Series> series = new ArrayList<>();
        List<Alignment.Scatter> scatter = new ArrayList<>();
        for (NamedRun run : runs) {
            if (!run.alignment().bins().equals(bins)) {
                throw new IllegalArgumentException("run " + run.run() + " was binned as " + run.alignment().bins()
                        + ", not as " + bins);
            }
            List<Double> perBin = new ArrayList<>();
            for (double value : run.alignment().sendsPerBin()) {
                perBin.add(round(value, 4));
            }
            series.add(new Alignment.Series(run.run(), run.alignment().summary().stallsMet(), perBin));
            List<RunResult.Point> points = new ArrayList<>();
            for (ScatterPoint point : run.alignment().scatter()) {
                points.add(new RunResult.Point(ms(point.offsetNanos()), ms(point.correctedNanos())));
            }
            scatter.add(new Alignment.Scatter(run.run(), points));
        }
        return new Alignment(ms(bins.stallNanos()), ms(bins.binNanos()), ms(bins.fromNanos()), ms(bins.toNanos()),
                series, scatter);
    }

    /** Nanoseconds as milliseconds rounded to the microsecond. */
    static double ms(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
