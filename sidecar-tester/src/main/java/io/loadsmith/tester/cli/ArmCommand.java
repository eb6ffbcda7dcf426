package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.scenario.Durations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code loadsmith arm}: POST /arm, a seeded plan or explicit windows. */
@Command(name = "arm", mixinStandardHelpOptions = true,
        description = "Arm an agent: replace any pending stall plan with a new one, starting now.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  loadsmith arm --admin http://127.0.0.1:7070 --seed 7 --mean-interval 4s --duration 100ms --min-gap 500ms --horizon 60s",
            "  loadsmith arm --admin http://127.0.0.1:7070 --stall 500ms:300ms --stall 2s:100ms --kind spin",
            "Durations take ns, us, ms, s, m, h."})
final class ArmCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    AdminMixin admin;

    @Option(names = "--seed", description = "Seed of the plan (default ${DEFAULT-VALUE})", defaultValue = "1")
    long seed;

    @Option(names = "--mean-interval", paramLabel = "DURATION", defaultValue = "4s",
            description = "Mean start-to-start gap (default ${DEFAULT-VALUE})")
    String meanInterval;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "100ms",
            description = "Length of every stall (default ${DEFAULT-VALUE})")
    String duration;

    @Option(names = "--min-gap", paramLabel = "DURATION", defaultValue = "500ms",
            description = "Shortest start-to-start gap (default ${DEFAULT-VALUE})")
    String minGap;

    @Option(names = "--horizon", paramLabel = "DURATION", defaultValue = "60s",
            description = "Plan stalls only within this time after arming (default ${DEFAULT-VALUE})")
    String horizon;

    @Option(names = "--kind", defaultValue = "block", description = "block or spin (default ${DEFAULT-VALUE})")
    String kind;

    @Option(names = "--stall", paramLabel = "OFFSET:DURATION",
            description = "An explicit stall window instead of a seeded plan; repeat for more")
    List<String> stalls = new ArrayList<>();

    @Override
    public Integer call() throws AdminException {
        Map<String, Object> body = new LinkedHashMap<>();
        if (stalls.isEmpty()) {
            body.put("seed", seed);
            body.put("mean_interval_ms", millis("--mean-interval", meanInterval));
            body.put("duration_ms", millis("--duration", duration));
            body.put("min_gap_ms", millis("--min-gap", minGap));
            body.put("horizon_ms", millis("--horizon", horizon));
        } else {
            List<Map<String, Object>> windows = new ArrayList<>();
            for (String stall : stalls) {
                String[] parts = stall.split(":");
                if (parts.length != 2) {
                    throw new BadInputException("--stall " + stall + ": write it as OFFSET:DURATION, e.g. 500ms:300ms");
                }
                windows.add(Map.of("offset_ms", millis("--stall offset", parts[0]), "duration_ms",
                        millis("--stall duration", parts[1])));
            }
            body.put("stalls", windows);
        }
        body.put("kind", kind);
        JsonNode answer = admin.client().armJson(AdminCommands.PRETTY.valueToTree(body));
        var out = spec.commandLine().getOut();
        out.printf("armed %s: run_id %s, armed_at_ns %s, %d stalls planned%n", admin.admin,
                answer.path("run_id").asText("?"), answer.path("armed_at_ns").asText("?"),
                answer.path("stalls").size());
        AdminCommands.printStalls(out, answer.get("stalls"));
        return ExitCodes.OK;
    }

    static double millis(String option, String text) {
        try {
            return Durations.parse(text) / 1e6;
        } catch (IllegalArgumentException e) {
            throw new BadInputException(option + " " + e.getMessage());
        }
    }
}
