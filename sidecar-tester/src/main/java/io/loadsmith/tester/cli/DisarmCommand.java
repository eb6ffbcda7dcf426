package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.agentclient.AdminException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code loadsmith disarm}: POST /disarm. */
@Command(name = "disarm", mixinStandardHelpOptions = true,
        description = {"Disarm an agent: cancel its stalls, ending the one in progress.",
            "Prints the windows so far."},
        footerHeading = "%nExample:%n", footer = "  loadsmith disarm --admin http://127.0.0.1:7070")
final class DisarmCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    AdminMixin admin;

    @Override
    public Integer call() throws AdminException {
        JsonNode answer = admin.client().disarmJson();
        var out = spec.commandLine().getOut();
        out.printf("disarmed %s: %d stalls happened%n", admin.admin, answer.path("stalls").size());
        AdminCommands.printStalls(out, answer.get("stalls"));
        return ExitCodes.OK;
    }
}
