package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ServerPause;
import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.PauseProfiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Records the pauses an agent observes into a pause profile ({@code loadsmith pauses record}): pages {@code GET
 * /pauses} every interval, from the recording's start (offset 0: the agent's {@code /clock} then), and writes the
 * profile after every poll that brought new pauses, so a stop at any moment loses nothing already fetched.
 *
 * <p>An agent that restarted (another pid, or fewer pauses observed since its start than already read) is read
 * again from index 0, and said so;
 * the pauses already kept stay (the host's monotonic clock goes on, so their offsets stay true). An agent that does
 * not answer is said once and asked again at the next poll. A sleeper window the agent attributes to a safepoint
 * is that safepoint's, so it is not kept twice.
 */
public final class PauseRecording {

    /** A safepoint is finalised up to ~2 s after it ended (JFR's delivery): the last poll waits that long. */
    static final long LAST_DELIVERY_NANOS = 2_500_000_000L;

    /** The sleeper's windows are as fine as its 1 ms park; a safepoint's edges are finer. */
    static final double RESOLUTION_MS = 1.0;

    private final AdminClient client;
    private final Path out;
    private final PrintWriter log;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<PauseProfile.Pause> pauses = new ArrayList<>();
    private long startNanos;
    private long lastNanos;
    private long since;
    private long pid = -1;
    private long before;
    private boolean unreachable;

    public PauseRecording(AdminClient client, Path out, PrintWriter log) {
        this.client = client;
        this.out = out;
        this.log = log;
    }

    /** Offset 0 of the profile: the agent's clock when the recording started. */
    public long startNanos() {
        return startNanos;
    }

    /** Ends the recording at its next poll (Ctrl-C): what was fetched is written. */
    public void stop() {
        stopped.countDown();
    }

    /** Records for forNanos (or until {@link #stop()}), polling every everyNanos; the profile as written last. */
    public PauseProfile run(long forNanos, long everyNanos) throws IOException, InterruptedException {
        JsonNode clock = client.clockJson();
        startNanos = clock.path("now_ns").asLong();
        lastNanos = startNanos;
        pid = clock.path("pid").asLong(-1);
        write();
        long deadline = System.nanoTime() + forNanos;
        boolean byStop = false;
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            if (stopped.await(Math.min(left, everyNanos), TimeUnit.NANOSECONDS)) {
                byStop = true;
                break;
            }
            poll();
        }
        if (!byStop) {
            stopped.await(LAST_DELIVERY_NANOS, TimeUnit.NANOSECONDS); // let JFR deliver the last safepoints
        }
        poll();
        if (before > 0) {
            log.printf("%d pauses from before the recording's start were left out%n", before);
        }
        return write();
    }

    /** Fetches every new page; a restarted or unreachable agent is said once. */
    void poll() throws IOException {
        try {
            JsonNode clock = client.clockJson();
            long nowPid = clock.path("pid").asLong(-1);
            if (nowPid != pid || observedSinceStart() < since) {
                log.printf("the agent restarted (pid %d, now %d): kept %d pauses; reading the new process's from its first%n",
                        pid, nowPid, pauses.size());
                pid = nowPid;
                since = 0;
            }
            AdminClient.PausePage page = client.pauses(since);
            if (unreachable) {
                log.printf("the agent answers again%n");
                unreachable = false;
            }
            int had = pauses.size();
            while (true) {
                page.pauses().forEach(this::keep);
                since = page.nextIndex();
                if (!page.more()) {
                    break;
                }
                page = client.pauses(since);
            }
            lastNanos = Math.max(lastNanos, clock.path("now_ns").asLong());
            if (pauses.size() > had) {
                write();
            }
        } catch (AdminException e) {
            if (!unreachable) {
                log.printf("%s (kept %d pauses; asking again every poll)%n", e.getMessage(), pauses.size());
                unreachable = true;
            }
        }
    }

    /** How many pauses the agent observed since it started (/health: its indices run up to this). */
    private long observedSinceStart() throws AdminException {
        JsonNode counts = client.health().path("pauses");
        return counts.path("safepoints").asLong(0) + counts.path("sleeper").asLong(0);
    }

    /**
     * The pauses, in start order, less each sleeper ({@code host}) window that overlaps a safepoint's: one the
     * agent did not attribute because JFR delivered the safepoint late is still that safepoint's stop, whose
     * edges are exact, and a JVM stops once at a time (a replay refuses overlapping pauses).
     */
    static List<PauseProfile.Pause> withoutOverlappingHost(List<PauseProfile.Pause> sorted) {
        List<PauseProfile.Pause> kept = new ArrayList<>();
        for (PauseProfile.Pause pause : sorted) {
            boolean host = pause.source().equals("host");
            boolean overlaps = sorted.stream().anyMatch(other -> other != pause && !other.source().equals("host")
                    && other.offsetMs() < pause.offsetMs() + pause.durationMs()
                    && pause.offsetMs() < other.offsetMs() + other.durationMs());
            if (!host || !overlaps) {
                kept.add(pause);
            }
        }
        return kept;
    }

    private void keep(ServerPause p) {
        if (p.label().equals("attributed")) {
            return;
        }
        if (p.startNanos() < startNanos) {
            before++;
            return;
        }
        String source = p.source().equals("sleeper") ? "host" : p.json().path("gc").isTextual() ? "gc" : "safepoint";
        pauses.add(new PauseProfile.Pause((p.startNanos() - startNanos) / 1e6, Math.max(1, p.endNanos() - p.startNanos()) / 1e6,
                source, p.label()));
    }

    private PauseProfile write() throws IOException {
        List<PauseProfile.Pause> sorted = new ArrayList<>(pauses);
        sorted.sort(Comparator.comparingDouble(PauseProfile.Pause::offsetMs));
        PauseProfile profile = new PauseProfile(PauseProfile.SCHEMA,
                new PauseProfile.Origin("agent", null, null, null, "recording-start", client.base().toString()),
                (lastNanos - startNanos) / 1e6, RESOLUTION_MS, withoutOverlappingHost(sorted),
                new PauseProfile.Unread(0, List.of()));
        PauseProfiles.write(out, profile);
        return profile;
    }
}
