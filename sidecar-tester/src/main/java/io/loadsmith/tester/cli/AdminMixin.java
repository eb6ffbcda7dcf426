package io.loadsmith.tester.cli;

import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.tester.agentclient.AdminClient;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --admin URL} and {@code --token-file F}: where an agent's admin API is and how to get in. */
public final class AdminMixin {

    @Option(names = "--admin", required = true, paramLabel = "URL",
            description = "The agent's admin API, e.g. http://127.0.0.1:7070")
    URI admin;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "A file whose first line is the admin bearer token (when the agent was started with one)")
    Path tokenFile;

    /** A client for the admin API. */
    AdminClient client() {
        if (admin.getScheme() == null || !(admin.getScheme().equals("http") || admin.getScheme().equals("https"))
                || admin.getHost() == null) {
            throw new BadInputException("--admin must be an http:// URL with a host (got \"" + admin + "\")");
        }
        return AdminClient.of(admin, token());
    }

    String token() {
        if (tokenFile == null) {
            return null;
        }
        try {
            return TokenFile.read(tokenFile);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--token-file " + e.getMessage());
        }
    }
}
