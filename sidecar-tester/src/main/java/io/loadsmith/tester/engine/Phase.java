package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;

import java.util.function.Consumer;

/**
 * One phase of a run (the warm-up, or the counted run): the journeys and requests of any load model, its
 * {@link LoadModel} deciding when journeys start. Everything runs on the scheduler's thread: transports'
 * answers are posted back to it, so no state here is shared.
 */
final class Phase {

    private static final long CANCEL_BACKSTOP_NANOS = 1_000_000_000L;

    private final Scheduler scheduler;
    private final Transport transport;
    private final RequestSource source;
    private final TesterSpec spec;
    private final RunRecorder recorder;       // the warm-up's writes nothing (null: not recorded)
    private final LoadModel model;
    private final long startNanos;
    private long endNanos;                    // no new journeys from here on (moved earlier by a user stop)
    private final long journeyLimit;          // warm-up by requests; Long.MAX_VALUE otherwise
    private final Consumer<Phase> onDone;
    private final Consumer<Throwable> onError;
    private final int lane;                   // this phase's lane of the run's lanes: see LoadRun
    private final int lanes;

    private long journeysStarted;
    private int inFlight;
    private int pending;
    private final Journey inFlightHead = Journey.sentinel();
    private final Journey pendingHead = Journey.sentinel();
    private Journey free; // journeys that ended with their answer, for reuse (linked by next)
    private boolean userStopped;
    private boolean stopping;
    private boolean stopScheduled;
    private boolean finished;
    private RunListener lateSends = RunListener.NONE;
    private long lastReleaseNanos;

    // what the engine itself observes (the recorder keeps the rest)
    long waitedCount;
    long waitedTotalNanos;
    long waitedMaxNanos;

    Phase(Scheduler scheduler, Transport transport, RequestSource source, TesterSpec spec, RunRecorder recorder,
          long startNanos, long durationNanos, long journeyLimit, ArrivalSchedule schedule, int lane, int lanes,
          Consumer<Phase> onDone, Consumer<Throwable> onError) {
        this.lane = lane;
        this.lanes = lanes;
        this.onError = onError;
        this.scheduler = scheduler;
        this.transport = transport;
        this.source = source;
        this.spec = spec;
        this.recorder = recorder;
        this.startNanos = startNanos;
        this.endNanos = durationNanos >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : startNanos + durationNanos;
        this.journeyLimit = journeyLimit;
        this.onDone = onDone;
        this.model = LoadModel.of(this, spec, schedule);
    }

    /** Whether a user stop ({@link #userStop()}) cut this phase short. */
    boolean userStopped() {
        return userStopped;
    }

    long startNanos() {
        return startNanos;
    }

    long endNanos() {
        return endNanos;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    /** This phase's lane, in [0, {@link #lanes()}): a closed or paced phase runs connections k = lane mod lanes. */
    int lane() {
        return lane;
    }

    /** How many lanes the run has (1: one scheduler runs everything). */
    int lanes() {
        return lanes;
    }

    /**
     * The first connection a closed or paced phase runs: connection k runs in shard {@code k mod shards},
     * and in that shard in lane {@code (k / shards) mod lanes}.
     */
    int firstConnection() {
        return spec.shardIndex() + spec.shardCount() * lane;
    }

    /** The step between the connections a closed or paced phase runs (see {@link #firstConnection()}). */
    int connectionStride() {
        return spec.shardCount() * lanes;
    }

    /** The arrival number of this phase's n-th closed journey: unique across lanes and shards. */
    long closedArrival(long journey) {
        return (journey * lanes + lane) * spec.shardCount() + spec.shardIndex();
    }

    boolean stopping() {
        return stopping;
    }

    /** Where sends released late by their own timer are reported ({@link RunListener#sendLate}). */
    void reportLateSendsTo(RunListener listener) {
        this.lateSends = listener;
    }

    /** Schedules the phase's first events. */
    void start() {
        model.start();
        if (endNanos < Long.MAX_VALUE / 4) {
            post(this::stop, endNanos + spec.graceNanos());
        }
        checkDone();
    }

    // ---- for the load models

    /** Whether the phase started as many journeys as its limit allows (then its grace is armed). */
    boolean atJourneyLimit() {
        if (journeysStarted >= journeyLimit) {
            limitReached();
            return true;
        }
        return false;
    }

    /** Counts a new journey and returns its index among the phase's journeys. */
    long journeyStarted() {
        return journeysStarted++;
    }

    /** The journey with the request of its first step, intended at intendedNanos; null if it has none. */
    Journey create(long arrival, int connection, long iteration, long intendedNanos) {
        Journey journey = free;
        if (journey == null) {
            journey = new Journey(this, arrival, connection, iteration);
        } else {
            free = journey.next;
            journey.next = null;
            journey.reset(arrival, connection, iteration);
        }
        if (!nextStep(journey, intendedNanos)) {
            journey.next = free;
            free = journey;
            return null;
        }
        return journey;
    }

    /** Creates the request of the journey's current step; false if it has none. */
    private boolean nextStep(Journey journey, long intendedNanos) {
        RequestSpec request = source.request(journey.arrival, journey.position, journey.connection);
        if (request == null) {
            return false;
        }
        if (recorder != null) {
            recorder.expect(intendedNanos);
        }
        journey.step(request, intendedNanos);
        return true;
    }

    /** Sends the journey's request now, or at its intended time if that is later. */
    void sendAtIntended(Journey journey) {
        if (journey.intendedNanos <= scheduler.nanoTime()) {
            dispatch(journey);
        } else {
            journey.linkBefore(pendingHead);
            pending++;
            scheduler.at(journey.intendedNanos, journey);
        }
    }

    /** On the scheduler's thread: a pending journey's intended time came. */
    void sendPending(Journey journey) {
        journey.unlink();
        pending--;
        long intendedNanos = journey.intendedNanos;
        dispatch(journey);
        timerFired(intendedNanos);
        afterEvent();
    }

    void dispatch(Journey journey) {
        if (stopping) {
            drop(journey, -1, -1);
            journeyDone(journey);
            return;
        }
        journey.state = Journey.State.IN_FLIGHT;
        journey.releaseNanos = scheduler.nanoTime();
        lastReleaseNanos = journey.releaseNanos;
        journey.linkBefore(inFlightHead);
        inFlight++;
        transport.send(journey.request, journey);
    }

    /**
     * Right after {@link #dispatch} of a request released by its own timer, due at intendedNanos: reports
     * it if the loop came to it more than {@link RunListener#LATE_SEND_NANOS} beyond the precision (a send up
     * to the precision late is late by design, not a pause of the loop).
     */
    void timerFired(long intendedNanos) {
        if (!stopping && lastReleaseNanos - intendedNanos > RunListener.LATE_SEND_NANOS + spec.precisionNanos()) {
            lateSends.sendLate(intendedNanos, lastReleaseNanos);
        }
    }

    /** A request waited waitNanos (> 0) past its intended time before the engine could send it. */
    void waited(long waitNanos) {
        waitedCount++;
        waitedTotalNanos += waitNanos;
        waitedMaxNanos = Math.max(waitedMaxNanos, waitNanos);
    }

    /** Paced iterations not sent (on_late: skip). */
    void skipped(long count) {
        if (recorder != null && count > 0) {
            recorder.skipped(count);
        }
    }

    /** Counts a journey never sent (a user stop or the end came first) as dropped. */
    void dropUnsent(Journey journey) {
        drop(journey, -1, -1);
    }

    // ---- answers

    /** On the scheduler's thread: the transport reported the end of the journey's exchange. */
    void answered(Journey journey) {
        long endNanos = journey.endNanos;
        Outcome outcome = journey.outcome;
        if (outcome == Outcome.CANCELLED) {
            dropInFlight(journey, endNanos);
        } else {
            takeOutOfFlight(journey);
            if (recorder != null) {
                recorder.completed(journey.intendedNanos, journey.releaseNanos, journey.sentNanos, endNanos,
                        journey.request.connection(), journey.request.step(), journey.status, outcome, journey.servedBy);
            }
            if (outcome != Outcome.OK || stopping || userStopped) {
                endAnswered(journey);
            } else {
                Journey next = journey.sentNanos >= 0 ? journey : journey.copy(); // see Journey on reuse
                next.position++;
                long nextIntended = endNanos + Math.max(0, source.thinkNanos(next.arrival, next.position));
                if (nextStep(next, nextIntended)) {
                    sendAtIntended(next);
                } else {
                    endAnswered(next);
                }
            }
        }
        afterEvent();
    }

    /** Ends a journey whose last request was answered; it is reused if the transport is done with it. */
    private void endAnswered(Journey journey) {
        journeyDone(journey);
        if (journey.sentNanos >= 0) {
            journey.next = free;
            free = journey;
        }
    }

    private void takeOutOfFlight(Journey journey) {
        journey.state = Journey.State.DONE;
        journey.unlink();
        inFlight--;
    }

    /** Counts a request in flight as dropped (endNanos -1: it never ended) and ends its journey. */
    private void dropInFlight(Journey journey, long endNanos) {
        takeOutOfFlight(journey);
        drop(journey, journey.sentNanos, endNanos);
        journeyDone(journey);
    }

    private void drop(Journey journey, long sentNanos, long endNanos) {
        if (recorder != null) {
            recorder.dropped(journey.intendedNanos, sentNanos, endNanos,
                    journey.request.connection(), journey.request.step());
        }
    }

    private void journeyDone(Journey journey) {
        journey.state = Journey.State.DONE;
        model.journeyDone(journey);
    }

    // ---- the end

    /** A phase bounded by a number of journeys (a warm-up) gets its grace from the moment the last one starts. */
    private void limitReached() {
        if (!stopScheduled && endNanos >= Long.MAX_VALUE / 4) {
            stopScheduled = true;
            post(this::stop, scheduler.nanoTime() + spec.graceNanos());
        }
    }

    /**
     * The user asked to stop (on the scheduler's thread): nothing intended from now on is created or sent
     * (pending arrivals, iterations and later journey steps are withdrawn: they were never scheduled), the
     * requests in flight get the grace, then {@link #stop()} cancels them. A stop after the phase's duration
     * only brings the end of the grace closer.
     */
    void userStop() {
        if (finished || stopping) {
            return;
        }
        long now = scheduler.nanoTime();
        if (now < endNanos) {
            userStopped = true;
            endNanos = Math.max(startNanos, now);
            model.userStop();
            Journey j = pendingHead.next;
            while (j != pendingHead) {
                Journey next = j.next;
                if (j.intendedNanos >= endNanos) {
                    withdraw(j);
                }
                j = next;
            }
        }
        post(this::stop, now + spec.graceNanos());
        afterEvent();
    }

    private void withdraw(Journey journey) {
        journey.unlink();
        pending--;
        if (recorder != null) {
            recorder.withdraw(journey.intendedNanos);
        }
        journeyDone(journey);
    }

    private void stop() {
        if (finished) {
            return;
        }
        stopping = true;
        model.stop();
        if (inFlight > 0) {
            transport.cancelAll();
            post(this::dropUnanswered, scheduler.nanoTime() + CANCEL_BACKSTOP_NANOS);
        }
        afterEvent();
    }

    /**
     * The transport did not complete every cancelled exchange: what is left is dropped and ends its journey
     * as a cancelled one does (a closed or paced connection then stops, since the phase is stopping).
     */
    private void dropUnanswered() {
        for (Journey j = inFlightHead.prev; j != inFlightHead; j = inFlightHead.prev) {
            dropInFlight(j, -1);
        }
        afterEvent();
    }

    void afterEvent() {
        if (recorder != null) {
            recorder.advance(scheduler.nanoTime());
        }
        checkDone();
    }

    private void checkDone() {
        if (!finished && model.idle() && inFlight == 0 && pending == 0) {
            finished = true;
            onDone.accept(this);
        }
    }

    String stepName(int step) {
        return source.stepName(step);
    }

    boolean finished() {
        return finished;
    }

    void fail(Throwable failure) {
        finished = true;
        onError.accept(failure);
    }

    /** Runs task at nanos, unless the phase has finished by then. */
    void post(Runnable task, long nanos) {
        scheduler.at(nanos, PhaseTask.of(this, task));
    }
}
