package io.loadsmith.tester.session;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.tester.agentclient.AdminApi;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.align.MissingStalls;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The stalls of an armed run, fetched from the agent while the run goes on, so that the windows that ended
 * are kept if the agent dies: once a second, one {@code GET /stalls?run_id=&since_index=} from the index
 * after the last window fetched (an empty page when nothing new ended). {@link #finish()} fetches once more
 * after the run and says whether the agent still answered. A fetch that gets no answer (connection refused,
 * timeout) is retried on the next tick; the agent is lost when the last one, {@link #finish()}'s, gets none.
 * Each call is bounded by the admin client's timeouts (3 s to connect, 10 s a call). Times are on
 * {@code clock} (the run's), in nanoseconds. Who fetches is the run's {@link Poller}: in real time a daemon
 * thread of the feed's own (never the send loop), on a virtual clock the run's scheduler. A feed may also
 * show the windows live ({@link #showLive}): the plan when armed, each window once fetched.
 */
final class StallFeed implements AutoCloseable {

    static final long POLL_NANOS = 1_000_000_000L;
    /** Pages fetched at most in one fetch (the agent pages by 10,000). */
    private static final int MAX_PAGES = 1_000;

    /** Calls a feed's fetch every period from now on, until the returned stop is run. */
    @FunctionalInterface
    interface Poller {
        Runnable every(long periodNanos, Runnable fetch);

        /** Nobody: fetched by hand ({@link #fetch()}, {@link #finish()}), as tests do. */
        Poller BY_HAND = (periodNanos, fetch) -> () -> { };

        /** A daemon thread of each feed's own, {@code loadsmith-stall-feed}: a real run. */
        Poller THREAD = (periodNanos, fetch) -> {
            ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "loadsmith-stall-feed");
                t.setDaemon(true);
                return t;
            });
            thread.scheduleWithFixedDelay(fetch, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
            return thread::shutdown;
        };

        /** The run's own scheduler (its thread, its clock): a run on a virtual clock. */
        static Poller on(Scheduler scheduler) {
            return (periodNanos, fetch) -> {
                boolean[] stopped = new boolean[1];
                Runnable tick = new Runnable() {
                    @Override
                    public void run() {
                        if (!stopped[0]) {
                            fetch.run();
                            scheduler.at(scheduler.nanoTime() + periodNanos, this);
                        }
                    }
                };
                scheduler.at(scheduler.nanoTime() + periodNanos, tick);
                return () -> stopped[0] = true;
            };
        }
    }

    private final AdminApi admin;
    private final String runId;
    private final Clock clock;
    private final Runnable stop;
    private final List<ServerStall> fetched = new ArrayList<>();
    private long nextIndex;
    private long lastAnsweredNanos = Long.MIN_VALUE;
    private long unansweredSinceNanos = -1;
    private AdminException failure;
    private LiveStats live;
    private String liveAgent;
    private ClockOffset liveOffset;

    private StallFeed(AdminApi admin, String runId, Clock clock, Poller poller) {
        this.admin = admin;
        this.runId = runId;
        this.clock = clock;
        this.stop = poller.every(POLL_NANOS, this::fetch);
    }

    /** A feed fetched only by hand ({@link #fetch()}, {@link #finish()}): tests. */
    static StallFeed byHand(AdminApi admin, String runId, Clock clock) {
        return start(admin, runId, clock, Poller.BY_HAND);
    }

    /** A feed that {@code poller} fetches once a second from now; {@link #finish()} stops it. */
    static StallFeed start(AdminApi admin, String runId, Clock clock, Poller poller) {
        return new StallFeed(admin, runId, clock, poller);
    }

    /** One fetch of what ended since the last one; a failure is kept for {@link #finish()}. */
    synchronized void fetch() {
        long sentNanos = clock.nanoTime();
        try {
            for (int page = 0; page < MAX_PAGES; page++) {
                AdminClient.StallPage answer = admin.stalls(runId, nextIndex);
                fetched.addAll(answer.stalls());
                showFetched(answer.stalls());
                boolean more = answer.more() && answer.nextIndex() > nextIndex;
                nextIndex = Math.max(nextIndex, answer.nextIndex());
                if (!more) {
                    break;
                }
            }
            lastAnsweredNanos = sentNanos;
            unansweredSinceNanos = -1;
            failure = null;
        } catch (AdminException e) {
            if (e.status() == 0 && unansweredSinceNanos < 0) {
                unansweredSinceNanos = sentNanos;
            }
            failure = e;
        }
    }

    /**
     * From now on, shows the run's windows in {@code stats} as {@code agent}'s: at once the windows of the plan
     * as {@code armed} says (planned start and duration), then each window as it really was once it is fetched.
     * {@code offset} takes the agent's clock to the tester's. Call it before the feed's first fetch (right
     * after {@link #start}); returns this feed.
     */
    StallFeed showLive(LiveStats stats, String agent, AdminClient.Armed armed, ClockOffset offset) {
        if (stats == null) {
            return this;
        }
        synchronized (this) {
            live = stats;
            liveAgent = agent;
            liveOffset = offset;
            for (PlannedStall planned : armed.stalls()) {
                long start = offset.toTesterNanos(armed.armedAtNanos() + planned.offsetNanos());
                stats.stallPlanned(agent, planned.index(), start, start + planned.durationNanos());
            }
            showFetched(fetched);
        }
        return this;
    }

    private void showFetched(List<ServerStall> stalls) {
        if (live == null) {
            return;
        }
        for (ServerStall stall : stalls) {
            StallWindow window = stall.onTesterClock(liveOffset);
            live.stallReported(liveAgent, window.index(), window.startNanos(), window.endNanos());
        }
    }

    /**
     * What the feed got by the end of the run.
     *
     * @param stalls                the windows fetched, in index order
     * @param lastAnsweredNanos     when the last answered fetch was sent ({@code Long.MIN_VALUE}: none was)
     * @param unansweredSinceNanos  when the first of the last unanswered fetches was sent; -1 when the last
     *                              fetch was answered
     * @param failure               why the last fetch failed; null when it was answered
     */
    record Fetched(List<ServerStall> stalls, long lastAnsweredNanos, long unansweredSinceNanos,
                   AdminException failure) {

        Fetched {
            stalls = List.copyOf(stalls);
        }

        /** True when the agent did not answer the last fetch: its later windows are unknown. */
        boolean lost() {
            return unansweredSinceNanos >= 0;
        }

        /**
         * The end of the span in which the agent's answers confirm what happened: {@code countEndNanos}
         * when the agent answered to the end, else one poll interval before its last answer (a window is
         * listed once it has ended, and a stall may start a little late).
         */
        long confirmedUntilNanos(long countEndNanos) {
            if (!lost()) {
                return countEndNanos;
            }
            return lastAnsweredNanos == Long.MIN_VALUE ? Long.MIN_VALUE
                    : Math.min(countEndNanos, lastAnsweredNanos - POLL_NANOS);
        }
    }

    /**
     * Stops the periodic fetch, fetches once more and returns everything fetched.
     *
     * @throws AdminException when the agent answered the last fetch with an error (a refused token, a
     *                        malformed call): that is not a lost agent
     */
    Fetched finish() throws AdminException {
        close();
        synchronized (this) {
            fetch();
            if (failure != null && unansweredSinceNanos < 0) {
                throw failure;
            }
            return new Fetched(fetched, lastAnsweredNanos, unansweredSinceNanos, failure);
        }
    }

    /** Stops the periodic fetch (a fetch in progress completes); idempotent. */
    @Override
    public void close() {
        stop.run();
    }

    /**
     * What a lost agent left unknown ({@code agent_lost}). The planned stalls inside the counted span that
     * were not fetched are missing when the agent answered after they were due ({@code missing}, computed by
     * the caller up to {@link Fetched#confirmedUntilNanos}), and unconfirmed when they were due later.
     *
     * @param armedAtTesterNanos the moment of arming, on the tester's clock
     * @param countStartNanos    the counted start, on the tester's clock
     * @param countEndNanos      the end of the counted span, on the tester's clock
     */
    static RunResult.AgentLost agentLost(Fetched fetched, List<PlannedStall> planned, long armedAtTesterNanos,
                                         long countStartNanos, long countEndNanos, List<Integer> missing) {
        Set<Integer> known = new HashSet<>(missing);
        fetched.stalls().forEach(stall -> known.add(stall.index()));
        List<Integer> unconfirmed = MissingStalls.missing(planned, armedAtTesterNanos, countEndNanos, known);
        double atMs = (fetched.unansweredSinceNanos() - countStartNanos) / 1e6;
        String error = fetched.failure() == null ? "no answer" : fetched.failure().getMessage();
        return new RunResult.AgentLost(atMs, unconfirmed, error);
    }

    /** The run's warning (and the console's line) for an agent that stopped answering. */
    static String warning(double atMs, int windowsFetched, List<Integer> unconfirmed) {
        return String.format(Locale.ROOT, "the agent stopped answering %.1f s into the run: the %d stall window(s) "
                + "fetched before are kept and aligned; %d planned stall(s) inside the counted span could not be "
                + "confirmed (indices %s): they may or may not have happened", atMs / 1e3, windowsFetched,
                unconfirmed.size(), unconfirmed);
    }
}
