package io.loadsmith.tester.session;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.agentclient.ServerStall;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The stalls of a load split across shards ({@code run --shard I/N} with a {@code stalls:} block): only one
 * process can arm the agent, so shard 0 arms it, at its counted start, under a run id every shard derives
 * alike without talking (from the scenario file, the seed, N and the common start); the other shards do not
 * arm, and after their grace fetch that run's windows by the id. Each shard probes the agent's clock itself
 * and maps the windows onto its own clock through its own offset. docs/scale-out.md.
 *
 * @param runId the run id the agent is armed under
 * @param arms  true for the one shard that arms (and disarms) the agent
 */
public record SharedStalls(String runId, boolean arms) {

    /**
     * The shared stalls of shard {@code index} of {@code count}.
     *
     * @param scenario       the scenario file's bytes (every shard runs the same file)
     * @param startAtEpochMs the common start: it makes the id differ from one run of the scenario to the next
     */
    public static SharedStalls of(byte[] scenario, long seed, int index, int count, long startAtEpochMs) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(scenario);
            sha.update(ByteBuffer.allocate(20).putLong(seed).putInt(count).putLong(startAtEpochMs).array());
            String digest = HexFormat.of().formatHex(sha.digest(), 0, 8);
            return new SharedStalls("shards-" + digest + "-" + startAtEpochMs, index == 0);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * What the arming shard's {@code /arm} answered, as a shard that did not arm sees it: the plan computed
     * from the same seed and horizon (or the same replay), armed when the recorded windows say (a window's planned start less its
     * offset), or at {@code countStartServerNanos} when none was recorded.
     */
    AdminClient.Armed armedAsRecorded(AgentStalls stalls, long horizonNanos, List<ServerStall> recorded,
                                      long countStartServerNanos) {
        List<PlannedStall> planned = stalls.plan(horizonNanos).stalls();
        long armedAtNanos = countStartServerNanos;
        for (ServerStall stall : recorded) {
            if (stall.index() < planned.size()) {
                armedAtNanos = stall.plannedStartNanos() - planned.get(stall.index()).offsetNanos();
                break;
            }
        }
        return new AdminClient.Armed(runId, armedAtNanos, horizonNanos, planned);
    }

    /** The warning of a shard that found no window under the shared run id. */
    String noneWarning() {
        return "the agent recorded no stall under the shared run id " + runId + ": shard 0, which arms the agent,"
                + " may not have run, or started at another --start-at";
    }
}
