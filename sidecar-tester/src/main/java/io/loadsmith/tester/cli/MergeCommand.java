package io.loadsmith.tester.cli;

import io.loadsmith.tester.session.RunReport;
import io.loadsmith.tester.session.ShardMerge;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith merge DIR... --out DIR}: one results folder from the folders of a load's shards. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Merge the results folders of a load's shards into one.",
            "The folders of the N shards of one load (run --shard I/N) become one, as if one tester had sent it all: "
                + "requests.bin and latency.hlog merged on one timeline (histograms added, lossless), counts and "
                + "per-stall counts summed, the SLOs checked on the merged figures, the report drawn from them "
                + "(docs/scale-out.md)."},
        footerHeading = "%nExample:%n",
        footer = {"  loadsmith merge results/shard-0 results/shard-1 results/shard-2 --out results/merged",
            "",
            "Exit codes: 0 ok, 1 an SLO failed on the merged figures, 2 folders that are not the N shards of one "
                + "load (another scenario, seed or N, a shard twice or missing), or an --out that holds results."})
final class MergeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "The shards' results folders")
    List<Path> dirs;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the merged folder")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path dir = CliDirs.prepare(out, "merged");
        ShardMerge.MergedResult merged;
        try {
            merged = ShardMerge.merge(dirs, dir);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        var stdout = spec.commandLine().getOut();
        stdout.printf("loadsmith merge: %d shards -> %s%n%n", dirs.size(), dir);
        ConsoleTable.print(stdout, merged.results().runs().get(0), merged.verdicts());
        RunReport.write(dir, stdout);
        return merged.passed() ? ExitCodes.OK : ExitCodes.SLO_FAILED;
    }
}
