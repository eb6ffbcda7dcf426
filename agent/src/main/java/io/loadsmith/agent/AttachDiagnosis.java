package io.loadsmith.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Reads what can be known about a target process before and after a failed attach (Linux {@code /proc}),
 * and words the known failures so that a user knows what to do. Pure functions of what they are given,
 * except the {@code /proc} readers.
 */
final class AttachDiagnosis {

    private AttachDiagnosis() {
    }

    /** Null when this JVM has the jdk.attach module, else what to do. */
    static String missingAttachModule() {
        if (ModuleLayer.boot().findModule("jdk.attach").isPresent()) {
            return null;
        }
        return "this Java (" + System.getProperty("java.home") + ") has no jdk.attach module (a JRE, or a jlink image "
                + "without it), so it cannot attach to another JVM. Run the launcher with a full JDK of the same or a newer "
                + "version (e.g. /usr/lib/jvm/<jdk>/bin/java -jar loadsmith-agent.jar attach PID), or load the agent at "
                + "start with -javaagent:loadsmith-agent.jar";
    }

    /** The JVM flags and options of a process: its command line plus JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS. */
    static String jvmFlags(String pid) {
        StringBuilder flags = new StringBuilder();
        Path proc = Paths.get("/proc", pid);
        try {
            flags.append(new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' '));
        } catch (IOException | RuntimeException ignored) {
            // not Linux, or not ours to read
        }
        try {
            for (String variable : new String(Files.readAllBytes(proc.resolve("environ")), StandardCharsets.UTF_8).split("\0")) {
                if (variable.startsWith("JAVA_TOOL_OPTIONS=") || variable.startsWith("JDK_JAVA_OPTIONS=")) {
                    flags.append(' ').append(variable.substring(variable.indexOf('=') + 1));
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // environ is readable only by the process owner
        }
        return flags.toString();
    }

    /** Null when nothing in {@code flags} forbids an attach, else the reason and the fix. */
    static String forbiddenByFlags(String pid, String flags) {
        if (flags.contains("-XX:+DisableAttachMechanism")) {
            return "process " + pid + " was started with -XX:+DisableAttachMechanism: it accepts no attach at all. "
                    + "Restart it without that flag, or load the agent at start with -javaagent:loadsmith-agent.jar";
        }
        if (flags.contains("-XX:-EnableDynamicAgentLoading")) {
            return "process " + pid + " was started with -XX:-EnableDynamicAgentLoading: it refuses agents loaded while it "
                    + "runs. Restart it without that flag (or with -XX:+EnableDynamicAgentLoading), or load the agent at start "
                    + "with -javaagent:loadsmith-agent.jar";
        }
        return null;
    }

    /** Null when the process's owner is this user (or this user is root), else what to do. */
    static String otherUser(String pid) {
        String me = System.getProperty("user.name");
        try {
            String owner = Files.getOwner(Paths.get("/proc", pid)).getName();
            if (!owner.equals(me) && !me.equals("root")) {
                return differentUser(pid, owner, me);
            }
        } catch (IOException | RuntimeException ignored) {
            // no /proc: let the attach itself tell
        }
        return null;
    }

    static String differentUser(String pid, String owner, String me) {
        return "process " + pid + " runs as user " + owner + " but you are " + me + ": a JVM accepts an attach only from "
                + "its own user (or root). Run the launcher as that user: sudo -u " + owner
                + " java -jar loadsmith-agent.jar attach " + pid;
    }

    /** The note printed when the target JVM is 21 or newer and loads the agent dynamically. */
    static String dynamicLoadingNote(String pid, int feature, String flags) {
        if (feature < 21 || flags.contains("-XX:+EnableDynamicAgentLoading")) {
            return null;
        }
        return "note: process " + pid + " runs Java " + feature + ", which prints \"WARNING: A Java agent has been loaded "
                + "dynamically\" when an agent is attached (JEP 451). That is expected and harmless here. Start the service "
                + "with -XX:+EnableDynamicAgentLoading to allow it silently, or load the agent at start with "
                + "-javaagent:loadsmith-agent.jar; a future JDK may refuse dynamic loading unless that flag is given.";
    }

    /** Words a failed attach or load, using what the flags and the exception say. */
    static String explainFailure(String pid, String flags, Throwable failure) {
        String forbidden = forbiddenByFlags(pid, flags);
        if (forbidden != null) {
            return forbidden;
        }
        String other = otherUser(pid);
        if (other != null) {
            return other;
        }
        String text = String.valueOf(failure.getMessage());
        if (text.contains("No such process") || !Files.exists(Paths.get("/proc", pid))) {
            return "no process " + pid + " on this host; see: java -jar loadsmith-agent.jar list";
        }
        if (text.contains("not responding") || text.contains("doesn't respond") || text.contains("Unable to open socket file")) {
            return "process " + pid + " did not answer the attach request (" + text + "). It may not be a HotSpot JVM, it may "
                    + "have been started with -XX:+DisableAttachMechanism (through a file or a launcher we cannot see), or it "
                    + "may run in another container with its own /tmp. Load the agent at start with -javaagent instead";
        }
        if (text.contains("Dynamic agent loading") || text.contains("EnableDynamicAgentLoading")) {
            return "process " + pid + " refuses agents loaded while it runs (" + text + "). Restart it with "
                    + "-XX:+EnableDynamicAgentLoading, or load the agent at start with -javaagent:loadsmith-agent.jar";
        }
        return "attach to process " + pid + " failed: " + failure;
    }
}
