package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.ClockProbe;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadsmith clock}: GET /clock probes, the offset estimate of docs/alignment.md, "One clock". */
@Command(name = "clock", mixinStandardHelpOptions = true,
        description = {"Probe an agent's clock and estimate its offset from this one.",
            "offset = server_ns - (t0 + t1) / 2 with uncertainty (t1 - t0) / 2, from the probe with the smallest "
                + "round trip. On one host the offset should be within its uncertainty of 0."},
        footerHeading = "%nExample:%n", footer = "  loadsmith clock --admin http://127.0.0.1:7070 --probes 9")
final class ClockCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    AdminMixin admin;

    @Option(names = "--probes", defaultValue = "5", description = "How many probes (default ${DEFAULT-VALUE})")
    int probes;

    /** The best probe (offset and uncertainty) and the last {@code GET /clock} answer (pid, wall time). */
    record OffsetEstimate(ClockOffset offset, JsonNode last) {
    }

    /** Probes with {@link ClockProbe}, the same estimate {@code run}, {@code demo} and {@code experiment} take. */
    private static OffsetEstimate probe(AdminClient client, int probes) throws IOException {
        JsonNode[] last = new JsonNode[1];
        ClockOffset offset = ClockProbe.measure(Clock.system(), () -> {
            last[0] = client.clockJson();
            return last[0].path("now_ns").asLong();
        }, probes);
        return new OffsetEstimate(offset, last[0]);
    }

    @Override
    public Integer call() throws IOException {
        if (probes < 1) {
            throw new BadInputException("--probes must be >= 1 (got " + probes + ")");
        }
        OffsetEstimate estimate = probe(admin.client(), probes);
        var out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "clock of %s (pid %s, wall time %s)%n", admin.admin,
                estimate.last().path("pid").asText("?"), estimate.last().path("wall_time").asText("?"));
        out.printf(Locale.ROOT, "  offset %d ns +- %d ns (best of %d probes)%n", estimate.offset().offsetNanos(),
                estimate.offset().uncertaintyNanos(), probes);
        return ExitCodes.OK;
    }
}
