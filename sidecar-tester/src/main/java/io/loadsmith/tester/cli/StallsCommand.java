package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.agentclient.AdminException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadsmith stalls}: GET /stalls. */
@Command(name = "stalls", mixinStandardHelpOptions = true,
        description = {"List the stalls an agent has made.",
            "Each with its index, its planned and real start and end, and the requests it held."},
        footerHeading = "%nExamples:%n", footer = {
            "  loadsmith stalls --admin http://127.0.0.1:7070",
            "  loadsmith stalls --admin http://127.0.0.1:7070 --run-id 3 --json"})
final class StallsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    AdminMixin admin;

    @Option(names = "--run-id", description = "Only the stalls of this arming")
    String runId;

    @Option(names = "--json", description = "Print the agent's JSON answer as it is")
    boolean json;

    @Override
    public Integer call() throws AdminException {
        JsonNode answer = admin.client().stallsJson(runId, 0);
        var out = spec.commandLine().getOut();
        if (json) {
            AdminCommands.printJson(out, answer);
        } else {
            out.printf("stalls of %s%s: %d%n", admin.admin, runId == null ? "" : " (run " + runId + ")",
                    answer.path("stalls").size());
            AdminCommands.printStalls(out, answer.get("stalls"));
        }
        return ExitCodes.OK;
    }
}
