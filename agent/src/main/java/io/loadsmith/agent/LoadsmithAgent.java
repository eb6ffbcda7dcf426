package io.loadsmith.agent;

import java.lang.instrument.Instrumentation;

/**
 * The loadsmith agent: puts a stall gate on a JVM service's request path and serves the stall admin
 * API, so that a load test can stall the service on a seeded plan and learn exactly when each stall
 * really began and ended.
 *
 * <h2>Three ways to run it</h2>
 * <pre>
 * java -javaagent:loadsmith-agent.jar -jar service.jar                       # at start, defaults
 * java -javaagent:loadsmith-agent.jar=admin=127.0.0.1:7070,token=random -jar service.jar
 * java -jar loadsmith-agent.jar attach PID [OPTIONS]                         # into a running JVM
 * java -jar loadsmith-agent.jar list                                         # JVMs on this host
 * </pre>
 * {@code premain} (at start) and {@code agentmain} (attach) share one start path. Loading the agent a
 * second time into the same JVM (seen through the system property {@code loadsmith.agent.loaded}, set by
 * the first) does nothing but log where the first one serves; {@code attach} says so without loading.
 *
 * <h2>Options</h2>
 * Comma-separated {@code key=value} pairs:
 * <dl>
 * <dt>{@code admin=HOST:PORT}</dt>
 * <dd>where the admin API listens; default {@code 127.0.0.1:7070}; port 0 picks a free one (the agent
 * logs it and sets the system property {@code loadsmith.agent.admin}). Any host but loopback needs a
 * token. If the port is taken the service runs on and the agent stays inert, saying why.</dd>
 * <dt>{@code token=VALUE}</dt>
 * <dd>every admin call must carry {@code Authorization: Bearer VALUE}, else 401.</dd>
 * <dt>{@code token-file=PATH}</dt>
 * <dd>the token is the first line of PATH, trimmed ({@code ~/} is the home folder); a missing file or an
 * empty first line leaves the agent inert, saying why.</dd>
 * <dt>{@code token=random}</dt>
 * <dd>the agent generates a random token and writes it to {@code token-file} (default
 * {@code ~/.loadsmith/token}) with mode 0600, and logs the path.</dd>
 * <dt>{@code targets=auto|LIST}</dt>
 * <dd>which servers to gate: {@code auto} (default) is every target whose classes load; or a list
 * ({@code targets=jetty12+netty} or {@code targets=jetty12,netty}) of {@code jetty12}, {@code jetty9},
 * {@code servlet}, {@code tomcat}, {@code netty}, {@code undertow}, {@code jdkhttp}, {@code grpc}.</dd>
 * <dt>{@code method=com.acme.Foo#bar}</dt>
 * <dd>also gate, at its start and its end, every method {@code bar} declared in {@code com.acme.Foo}
 * (use {@code $} for nested classes); repeat the option for more methods.</dd>
 * <dt>{@code log=off|error|warning|info|debug}</dt>
 * <dd>how much the agent logs (one line each on standard error, never through the host's logging);
 * default {@code info}; {@code debug} logs every class it gates.</dd>
 * <dt>{@code observe=armed|always|off}</dt>
 * <dd>observe the host's real pauses (its safepoints through an in-process JFR stream, and the stalls of
 * the whole process through a sleeper thread) and serve them at {@code GET /pauses}: {@code armed} (the
 * default; {@code on} means the same) from each arm to 30 s after its run ends, with no thread and no JFR
 * recording in between; {@code always} from the agent's start; {@code off} never.</dd>
 * <dt>{@code sleeper=5ms}</dt>
 * <dd>how long the pause observer's sleeper parks, 1 ms (the default) to 100 ms: fewer wake-ups cost the
 * host less CPU, and a pause's start is then known only to within the park.</dd>
 * </dl>
 *
 * <h2>What it does</h2>
 * The gate classes (stall-service, relocated) are defined in the bootstrap class loader (not appended to
 * its search path, which would switch off the host's class-data sharing), so every class loader of the
 * host resolves one gate. The agent's weaver ({@code GateWeaver}, on the ASM that Byte Buddy ships;
 * retransforming classes already loaded) adds a call to the gate where a request enters each known server
 * and again on its response path, so a request in flight when a stall begins does not complete inside it.
 * The thread that loads the agent only parses the options and the token: the gate classes, the weaver and
 * then the admin API start on a daemon thread ({@code loadsmith-agent-start}) while the host goes on
 * starting, and no class file transformer is registered before the gate classes are in place; the admin
 * API listens only once the gates are in place. {@code GET /health} lists which targets matched which
 * classes; when none did, {@code POST /arm} answers 409 and says so. The admin API runs on the JDK's
 * HTTP server on threads the gate never holds, so {@code /disarm} works during a stall. An error inside
 * the agent is logged once and never reaches the request path.
 */
public final class LoadsmithAgent {

    private LoadsmithAgent() {
    }

    /** Entry point for {@code -javaagent:loadsmith-agent.jar[=OPTIONS]}. */
    public static void premain(String options, Instrumentation instrumentation) {
        AgentRuntime.start(options, instrumentation, "-javaagent");
    }

    /** Entry point for a dynamic attach ({@code java -jar loadsmith-agent.jar attach PID}). */
    public static void agentmain(String options, Instrumentation instrumentation) {
        AgentRuntime.start(options, instrumentation, "attach");
    }

    /** {@code java -jar loadsmith-agent.jar ...}: the launcher. */
    public static void main(String[] args) {
        Launcher.main(args);
    }
}
