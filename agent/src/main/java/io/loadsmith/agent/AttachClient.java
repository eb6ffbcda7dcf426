package io.loadsmith.agent;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.Properties;

/**
 * The JDK Attach API side of the launcher; loaded only once {@code jdk.attach} is known to be present.
 */
final class AttachClient {

    private static final long WAIT_FOR_ADMIN_MILLIS = 15_000;

    private AttachClient() {
    }

    static int list(PrintStream out) {
        String self = String.valueOf(ProcessHandle.current().pid());
        for (VirtualMachineDescriptor vm : VirtualMachine.list()) {
            if (vm.id().equals(self)) {
                continue;
            }
            String name = vm.displayName().isBlank() ? "(no main class: started from a custom launcher)" : vm.displayName();
            out.println(vm.id() + "\t" + name);
        }
        return Launcher.OK;
    }

    static int attach(String pid, String optionText, AgentOptions options, PrintStream out, PrintStream err) {
        String flags = AttachDiagnosis.jvmFlags(pid);
        String forbidden = AttachDiagnosis.forbiddenByFlags(pid, flags);
        if (forbidden == null) {
            forbidden = AttachDiagnosis.otherUser(pid);
        }
        if (forbidden != null) {
            err.println("attach: " + forbidden);
            return Launcher.ATTACH_FAILED;
        }
        String jar;
        try {
            jar = GateBootstrap.agentJar().toAbsolutePath().toString();
        } catch (IOException e) {
            err.println("attach: " + e.getMessage());
            return Launcher.ATTACH_FAILED;
        }
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(pid);
        } catch (Exception | Error e) {
            err.println("attach: " + AttachDiagnosis.explainFailure(pid, flags, e));
            return Launcher.ATTACH_FAILED;
        }
        try {
            Properties before = vm.getSystemProperties();
            String firstHow = before.getProperty(AgentRuntime.LOADED_PROPERTY);
            if (firstHow != null) {
                return reportAlreadyAttached(vm, pid, firstHow, out, err);
            }
            int feature = featureVersion(before.getProperty("java.specification.version", "17"));
            String note = AttachDiagnosis.dynamicLoadingNote(pid, feature, flags);
            if (note != null) {
                err.println(note);
            }
            try {
                vm.loadAgent(jar, optionText);
            } catch (Exception e) {
                err.println("attach: " + AttachDiagnosis.explainFailure(pid, flags, e));
                return Launcher.ATTACH_FAILED;
            }
            long deadline = System.nanoTime() + WAIT_FOR_ADMIN_MILLIS * 1_000_000;
            while (true) {
                Properties now = vm.getSystemProperties();
                String error = now.getProperty(AgentRuntime.ERROR_PROPERTY);
                if (error != null) {
                    err.println("attach: the agent loaded into process " + pid + " but is inert: " + error);
                    return Launcher.ATTACH_FAILED;
                }
                String address = now.getProperty(AgentRuntime.ADMIN_PROPERTY);
                if (address != null && answers(address)) {
                    out.println("loadsmith agent attached to process " + pid + ": admin API at " + address);
                    return Launcher.OK;
                }
                if (System.nanoTime() > deadline) {
                    err.println("attach: the agent loaded into process " + pid + " but its admin API did not answer within "
                            + WAIT_FOR_ADMIN_MILLIS / 1000 + " s (address: " + address + "); see that process's log");
                    return Launcher.ATTACH_FAILED;
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Launcher.ATTACH_FAILED;
        } catch (IOException | RuntimeException e) {
            err.println("attach: " + AttachDiagnosis.explainFailure(pid, flags, e));
            return Launcher.ATTACH_FAILED;
        } finally {
            try {
                vm.detach();
            } catch (IOException ignored) {
                // the target may be gone; nothing to undo
            }
        }
    }

    /**
     * The agent is in the target already: loads nothing, waits (as for a fresh attach) until the first
     * agent's admin API is known, and prints where it listens.
     */
    private static int reportAlreadyAttached(VirtualMachine vm, String pid, String firstHow, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT_FOR_ADMIN_MILLIS * 1_000_000;
        while (true) {
            Properties now = vm.getSystemProperties();
            String error = now.getProperty(AgentRuntime.ERROR_PROPERTY);
            if (error != null) {
                err.println("attach: the loadsmith agent is already in process " + pid + " but inert: " + error);
                return Launcher.ATTACH_FAILED;
            }
            String address = now.getProperty(AgentRuntime.ADMIN_PROPERTY);
            if (address != null || System.nanoTime() > deadline) {
                out.println("loadsmith agent " + AgentRuntime.alreadyAttached(firstHow, address) + " in process " + pid
                        + "; nothing changed");
                return address != null ? Launcher.OK : Launcher.ATTACH_FAILED;
            }
            Thread.sleep(50);
        }
    }

    /** True when the admin API answers at all (any HTTP status: 401 without a token still proves it runs). */
    private static boolean answers(String address) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(address + "/clock").toURL().openConnection();
            connection.setConnectTimeout(1000);
            connection.setReadTimeout(2000);
            int status = connection.getResponseCode();
            connection.disconnect();
            return status > 0;
        } catch (IOException e) {
            return false;
        }
    }

    static int featureVersion(String specification) {
        try {
            String first = specification.startsWith("1.") ? specification.substring(2) : specification;
            int dot = first.indexOf('.');
            return Integer.parseInt(dot < 0 ? first : first.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
