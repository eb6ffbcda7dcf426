package io.loadsmith.agent;

import io.loadsmith.stall.BuildInfo;
import java.io.PrintStream;

/**
 * {@code java -jar loadsmith-agent.jar [--help | --version | list | attach PID [OPTIONS]]}: shows the manual or
 * the version and commit, lists the JVMs on this host, or loads the agent into a running JVM and waits until its admin API answers.
 * Exit codes: 0 done, 2 bad arguments, 3 the attach failed (the message says why and what to do).
 */
public final class Launcher {

    static final int OK = 0;
    static final int BAD_ARGUMENTS = 2;
    static final int ATTACH_FAILED = 3;

    static final String USAGE = """
            loadsmith agent: stalls a JVM service's requests on a seeded plan, for load tests.

            Usage:
              java -javaagent:loadsmith-agent.jar[=OPTIONS] -jar service.jar   load at start
              java -jar loadsmith-agent.jar attach PID [OPTIONS]              load into a running JVM
              java -jar loadsmith-agent.jar list                              JVMs on this host
              java -jar loadsmith-agent.jar --help                            this text
              java -jar loadsmith-agent.jar --version                         version and commit

            OPTIONS (comma-separated key=value):
              admin=HOST:PORT        admin API address (default 127.0.0.1:7070; port 0 = any free port);
                                     a host other than loopback needs a token
              token=VALUE            require "Authorization: Bearer VALUE" on every admin call
              token-file=PATH        read the token from the first line of PATH (trimmed; ~/ = home)
              token=random           generate a token, write it to token-file (default ~/.loadsmith/token)
                                     with mode 0600, and log where
              targets=auto|LIST      servers to gate (default auto = all): jetty12, jetty9, servlet, tomcat,
                                     netty, undertow, jdkhttp, grpc, joined with + (targets=jetty12+netty)
              method=CLASS#METHOD    also gate this method at its start and end (repeatable)
              log=LEVEL              off, error, warning, info (default) or debug
              observe=MODE           when to observe real pauses (safepoints through JFR, a sleeper
                                     thread) and serve them at GET /pauses: armed (default; on means
                                     armed) from each arm to 30 s after its run, always, or off
              sleeper=DURATION       the pause sleeper's park, 1ms (default) to 100ms: longer is cheaper
                                     and knows a pause's start only to within it
              jfr-memory=small|jdk   JFR's buffers when the observer first starts JFR: small (default;
                                     1 MB of global buffers, unless the service sized or started JFR
                                     itself) or jdk (the JDK's 10 MB)

            Then: POST /arm, POST /disarm, GET /stalls, GET /pauses, GET /clock, GET /health, GET /metrics on the admin API.
            Example:
              java -jar loadsmith-agent.jar attach 4242 admin=127.0.0.1:7070,token=random
            """;

    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.print(USAGE);
            return OK;
        }
        switch (args[0]) {
            case "--version", "-V" -> {
                out.println("loadsmith-agent " + BuildInfo.current().describe());
                return OK;
            }
            case "list" -> {
                if (args.length != 1) {
                    err.println("list takes no arguments");
                    return BAD_ARGUMENTS;
                }
                String missing = AttachDiagnosis.missingAttachModule();
                if (missing != null) {
                    err.println(missing);
                    return ATTACH_FAILED;
                }
                return AttachClient.list(out);
            }
            case "attach" -> {
                if (args.length < 2 || args.length > 3) {
                    err.println("usage: java -jar loadsmith-agent.jar attach PID [OPTIONS]");
                    return BAD_ARGUMENTS;
                }
                String pid = args[1];
                if (!pid.matches("[0-9]+")) {
                    err.println("attach: PID must be a process id, a number (got \"" + pid + "\"); see: java -jar loadsmith-agent.jar list");
                    return BAD_ARGUMENTS;
                }
                String options = args.length == 3 ? args[2] : "";
                AgentOptions parsed;
                try {
                    parsed = AgentOptions.parse(options);
                } catch (IllegalArgumentException e) {
                    err.println("attach: " + e.getMessage());
                    return BAD_ARGUMENTS;
                }
                String missing = AttachDiagnosis.missingAttachModule();
                if (missing != null) {
                    err.println(missing);
                    return ATTACH_FAILED;
                }
                return AttachClient.attach(pid, options, parsed, out, err);
            }
            default -> {
                err.println("unknown command \"" + args[0] + "\"");
                err.print(USAGE);
                return BAD_ARGUMENTS;
            }
        }
    }
}
