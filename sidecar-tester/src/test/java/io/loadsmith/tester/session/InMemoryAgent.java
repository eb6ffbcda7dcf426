package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.agentclient.AdminApi;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ServerPause;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.SimulatedServer;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * An agent in memory, beside a {@link SimulatedServer} on a virtual clock: arming it puts the seeded plan's
 * windows on the server, {@code GET /stalls} lists those that have ended, its clock reads the virtual
 * clock plus an offset, and it observes the pauses it is given. From a moment on it may stop answering,
 * as a dead agent does: every call then fails as one that got no answer.
 */
final class InMemoryAgent implements AdminApi {

    private final URI base;
    private final String replicaId;
    private final VirtualScheduler clock;
    private final long offsetNanos;
    private final SimulatedServer server;
    private final List<ServerPause> pauses = new ArrayList<>();
    private long silentAfterArmingNanos = Long.MAX_VALUE;
    private long armedAtNanos = Long.MIN_VALUE;
    private String runId;
    private StallPlan plan;
    private final List<Long> armLatencies = new ArrayList<>();
    private int arms;

    /**
     * @param offsetNanos its clock minus the tester's
     * @param server      the replica it stalls
     */
    InMemoryAgent(String name, VirtualScheduler clock, long offsetNanos, SimulatedServer server) {
        this.base = URI.create("http://" + name + ".test:7070");
        this.replicaId = name;
        this.clock = clock;
        this.offsetNanos = offsetNanos;
        this.server = server;
    }

    /** Its i-th arm reaches it {@code nanos[i]} after it was sent (on the virtual clock, which stays); 0 after them. */
    InMemoryAgent armsLate(long... nanos) {
        for (long n : nanos) {
            armLatencies.add(n);
        }
        return this;
    }

    /** How many times it was armed. */
    int arms() {
        return arms;
    }

    /** From {@code nanos} after it was armed on, it answers nothing. */
    InMemoryAgent silentAfterArming(long nanos) {
        silentAfterArmingNanos = nanos;
        return this;
    }

    /** Observes a safepoint from {@code startNanos} to {@code endNanos} on the tester's clock. */
    InMemoryAgent pause(long startNanos, long endNanos) {
        ObjectNode json = JsonNodeFactory.instance.objectNode().put("index", pauses.size()).put("source", "safepoint")
                .put("label", "G1 Pause Young").put("start_ns", startNanos + offsetNanos)
                .put("end_ns", endNanos + offsetNanos).put("time_to_safepoint_ns", 1000);
        pauses.add(new ServerPause(pauses.size(), "safepoint", "G1 Pause Young", startNanos + offsetNanos,
                endNanos + offsetNanos, 1000L, json));
        return this;
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public long serverNanos() throws AdminException {
        answering("GET /clock");
        return clock.nanoTime() + offsetNanos;
    }

    @Override
    public JsonNode health() throws AdminException {
        answering("GET /health");
        return JsonNodeFactory.instance.objectNode().put("status", "ok").put("version", "test").put("commit", "none")
                .put("replica", replicaId);
    }

    @Override
    public AdminClient.Armed arm(SeededPlanSpec spec, StallKind kind, String runId) throws AdminException {
        answering("POST /arm");
        return armed(StallPlan.seeded(spec, kind), runId);
    }

    @Override
    public AdminClient.Armed arm(List<PlannedStall> windows, StallKind kind, String runId) throws AdminException {
        answering("POST /arm");
        return armed(StallPlan.explicit(windows, kind), runId);
    }

    @Override
    public AdminClient.Armed armNoStalls(long horizonNanos, StallKind kind, String runId) throws AdminException {
        answering("POST /arm");
        return armed(StallPlan.explicit(List.of(), kind, horizonNanos), runId);
    }

    private AdminClient.Armed armed(StallPlan armedPlan, String runId) {
        if (plan != null) {
            server.dropWindowsFrom(clock.nanoTime());
        }
        plan = armedPlan;
        armedAtNanos = clock.nanoTime() + (arms < armLatencies.size() ? armLatencies.get(arms) : 0);
        arms++;
        this.runId = runId != null ? runId : replicaId + "-run";
        server.arm(plan, armedAtNanos);
        return new AdminClient.Armed(this.runId, armedAtNanos + offsetNanos, plan.horizonNanos(), plan.stalls());
    }

    @Override
    public List<ServerStall> disarm() throws AdminException {
        answering("POST /disarm");
        return ended(0);
    }

    @Override
    public AdminClient.StallPage stalls(String runId, long sinceIndex) throws AdminException {
        answering("GET /stalls");
        List<ServerStall> ended = ended(sinceIndex);
        return new AdminClient.StallPage(ended, sinceIndex + ended.size(), false);
    }

    @Override
    public List<ServerStall> stalls(String runId) throws AdminException {
        answering("GET /stalls");
        return ended(0);
    }

    @Override
    public AdminClient.PausePage pauses() throws AdminException {
        answering("GET /pauses");
        return new AdminClient.PausePage(List.copyOf(pauses), pauses.size(), false, true, "on");
    }

    /** The windows of the plan that have ended by now, from index {@code since}, on this agent's clock. */
    private List<ServerStall> ended(long since) {
        List<ServerStall> ended = new ArrayList<>();
        for (PlannedStall stall : plan == null ? List.<PlannedStall>of() : plan.stalls()) {
            long start = armedAtNanos + stall.offsetNanos();
            if (stall.index() >= since && armedAtNanos + stall.endOffsetNanos() <= clock.nanoTime()) {
                ended.add(new ServerStall(stall.index(), start + offsetNanos, start + offsetNanos,
                        armedAtNanos + stall.endOffsetNanos() + offsetNanos, 0, "block", runId));
            }
        }
        return ended;
    }

    private void answering(String call) throws AdminException {
        if (armedAtNanos != Long.MIN_VALUE && clock.nanoTime() - armedAtNanos >= silentAfterArmingNanos) {
            throw new AdminException("admin " + base + ": cannot reach the agent's admin API for " + call, 0, null);
        }
    }
}
