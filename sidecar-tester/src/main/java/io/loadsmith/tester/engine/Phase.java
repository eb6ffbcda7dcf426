package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One phase of a run (the warm-up, or the counted run) of one load model. Everything runs on the
 * scheduler's thread: transports' callbacks are posted back to it, so no state here is shared.
 */
final class Phase {

    private static final long CANCEL_BACKSTOP_NANOS = 1_000_000_000L;

    private final Scheduler scheduler;
    private final Transport transport;
    private final RequestSource source;
    private final TesterSpec spec;
    private final RunRecorder recorder;       // null in the warm-up
    private final long startNanos;
    private long endNanos;                    // no new journeys from here on (moved earlier by a user stop)
    private final long journeyLimit;          // warm-up by requests; Long.MAX_VALUE otherwise
    private final ArrivalSchedule schedule;   // open model only
    private final Consumer<Phase> onDone;
    private final Consumer<Throwable> onError;

    private long journeysStarted;
    private boolean arrivalsDone;
    private int connectionsRunning;
    private int activeJourneys;
    private int inFlight;
    private int timers;
    private final ArrayDeque<Attempt> waiting = new ArrayDeque<>();
    private final Attempt inFlightHead = new Attempt(); // sentinel of the in-flight list
    private final Timer timerHead = new Timer(0, null, null); // sentinel of the pending-timer list
    private boolean userStopped;
    private boolean stopping;
    private boolean stopScheduled;
    private boolean finished;

    // what the engine itself observes (the recorder keeps the rest)
    long waitedCount;
    long waitedTotalNanos;
    long waitedMaxNanos;
    long journeysCompleted;

    Phase(Scheduler scheduler, Transport transport, RequestSource source, TesterSpec spec, RunRecorder recorder,
          long startNanos, long durationNanos, long journeyLimit, ArrivalSchedule schedule, Consumer<Phase> onDone,
          Consumer<Throwable> onError) {
        this.onError = onError;
        this.scheduler = scheduler;
        this.transport = transport;
        this.source = source;
        this.spec = spec;
        this.recorder = recorder;
        this.startNanos = startNanos;
        this.endNanos = durationNanos >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : startNanos + durationNanos;
        this.journeyLimit = journeyLimit;
        this.schedule = schedule;
        this.onDone = onDone;
        inFlightHead.prev = inFlightHead;
        inFlightHead.next = inFlightHead;
        timerHead.prev = timerHead;
        timerHead.next = timerHead;
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

    /** Schedules the phase's first events. */
    void start() {
        switch (spec.model()) {
            case OPEN -> nextArrival();
            case CLOSED -> {
                connectionsRunning = spec.connections();
                for (int k = 0; k < spec.connections(); k++) {
                    int connection = k;
                    scheduler.at(startNanos, guarded(() -> startClosedJourney(connection)));
                }
            }
            case PACED -> {
                connectionsRunning = spec.connections();
                for (int k = 0; k < spec.connections(); k++) {
                    startPacedIteration(k, 0, false);
                }
            }
        }
        if (endNanos < Long.MAX_VALUE / 4) {
            scheduler.at(endNanos + spec.graceNanos(), guarded(this::stop));
        }
        checkDone();
    }

    // ---- open

    private void nextArrival() {
        if (journeysStarted >= journeyLimit) {
            arrivalsDone = true;
            limitReached();
            return;
        }
        long offset = schedule.nextOffsetNanos();
        if (offset < 0 || startNanos + offset >= endNanos) {
            arrivalsDone = true;
            return;
        }
        long arrival = journeysStarted++;
        long intended = startNanos + offset;
        later(intended, null, () -> arrive(arrival, intended));
    }

    private void arrive(long arrival, long intendedNanos) {
        nextArrival();
        if (stopping) {
            return;
        }
        Journey journey = new Journey(arrival, -1, 0);
        Attempt attempt = create(journey, intendedNanos);
        if (attempt != null) {
            if (spec.maxConcurrency() > 0 && activeJourneys >= spec.maxConcurrency()) {
                waiting.add(attempt);
            } else {
                activeJourneys++;
                dispatch(attempt);
            }
        }
        afterEvent();
    }

    // ---- closed

    private void startClosedJourney(int connection) {
        if (stopping || scheduler.nanoTime() >= endNanos || journeysStarted >= journeyLimit) {
            if (journeysStarted >= journeyLimit) {
                limitReached();
            }
            connectionsRunning--;
            afterEvent();
            return;
        }
        Journey journey = new Journey(journeysStarted++, connection, 0);
        Attempt attempt = create(journey, scheduler.nanoTime());
        if (attempt == null) {
            connectionsRunning--;
        } else {
            activeJourneys++;
            dispatch(attempt);
        }
        afterEvent();
    }

    // ---- paced

    private long pacedIntended(int connection, long iteration) {
        return startNanos + connection * spec.paceNanos() / spec.connections() + iteration * spec.paceNanos();
    }

    /** Starts iteration n of connection k: at its intended time, or now if that has passed (catch-up). */
    private void startPacedIteration(int connection, long iteration, boolean fromAnswer) {
        long now = scheduler.nanoTime();
        long intended = pacedIntended(connection, iteration);
        if (fromAnswer && spec.onLate() == TesterSpec.OnLate.SKIP && intended < now) {
            long behind = (now - intended + spec.paceNanos() - 1) / spec.paceNanos();
            long firstOnTime = iteration + behind;
            long missed = behind;
            if (pacedIntended(connection, firstOnTime) >= endNanos) {
                missed = countBefore(connection, iteration, endNanos);
            }
            if (recorder != null && missed > 0) {
                recorder.skipped(missed);
            }
            iteration = firstOnTime;
            intended = pacedIntended(connection, iteration);
        }
        long arrival = iteration * spec.connections() + connection;
        if (stopping || intended >= endNanos || journeysStarted >= journeyLimit) {
            if (journeysStarted >= journeyLimit) {
                limitReached();
            }
            connectionsRunning--;
            return;
        }
        journeysStarted++;
        Journey journey = new Journey(arrival, connection, iteration);
        Attempt attempt = create(journey, intended);
        if (attempt == null) {
            connectionsRunning--;
            return;
        }
        activeJourneys++;
        if (intended <= now) {
            if (intended < now && recorder != null) {
                recorder.waited(now - intended);
                noteWait(now - intended);
            }
            dispatch(attempt);
        } else {
            later(intended, attempt, () -> {
                dispatch(attempt);
                afterEvent();
            });
        }
    }

    /** Iterations of connection k from iteration n whose intended time is before limit. */
    private long countBefore(int connection, long iteration, long limitNanos) {
        long first = pacedIntended(connection, iteration);
        if (first >= limitNanos) {
            return 0;
        }
        return (limitNanos - first + spec.paceNanos() - 1) / spec.paceNanos();
    }

    // ---- journeys and requests

    /** Creates the request of the journey's current step, intended at intendedNanos; null if it has none. */
    private Attempt create(Journey journey, long intendedNanos) {
        RequestSpec request = source.request(journey.arrival, journey.position, journey.connection);
        if (request == null) {
            return null;
        }
        if (recorder != null) {
            recorder.expect(intendedNanos);
        }
        return new Attempt(this, journey, request, intendedNanos);
    }

    private void dispatch(Attempt attempt) {
        if (stopping) {
            drop(attempt, -1, -1);
            journeyDone(attempt.journey);
            return;
        }
        attempt.releaseNanos = scheduler.nanoTime();
        attempt.linkAfter(inFlightHead);
        inFlight++;
        transport.send(attempt.request, attempt);
    }

    /** On the scheduler's thread: the transport reported the end of an exchange. */
    void onCompleted(Attempt attempt, long endNanos, int status, Outcome outcome) {
        if (attempt.done) {
            return; // already dropped by the backstop
        }
        Journey journey = attempt.journey;
        if (outcome == Outcome.CANCELLED) {
            dropInFlight(attempt, endNanos);
        } else {
            takeOutOfFlight(attempt);
            if (recorder != null) {
                recorder.completed(attempt.intendedNanos, attempt.releaseNanos, attempt.sentNanos, endNanos,
                        attempt.request.connection(), attempt.request.step(), status, outcome);
            }
            if (outcome != Outcome.OK || stopping || userStopped) {
                journeyDone(journey);
            } else {
                journey.position++;
                long nextIntended = endNanos + Math.max(0, source.thinkNanos(journey.arrival, journey.position));
                Attempt next = create(journey, nextIntended);
                if (next == null) {
                    journeyDone(journey);
                } else if (nextIntended <= scheduler.nanoTime()) {
                    dispatch(next);
                } else {
                    later(nextIntended, next, () -> {
                        dispatch(next);
                        afterEvent();
                    });
                }
            }
        }
        afterEvent();
    }

    private void takeOutOfFlight(Attempt attempt) {
        attempt.done = true;
        attempt.unlink();
        inFlight--;
    }

    /** Counts a request in flight as dropped (endNanos -1: it never ended) and ends its journey. */
    private void dropInFlight(Attempt attempt, long endNanos) {
        takeOutOfFlight(attempt);
        drop(attempt, attempt.sentNanos, endNanos);
        journeyDone(attempt.journey);
    }

    private void drop(Attempt attempt, long sentNanos, long endNanos) {
        if (recorder != null) {
            recorder.dropped(attempt.intendedNanos, sentNanos, endNanos,
                    attempt.request.connection(), attempt.request.step());
        }
    }

    private void journeyDone(Journey journey) {
        activeJourneys--;
        journeysCompleted++;
        switch (spec.model()) {
            case OPEN -> {
                Attempt next = waiting.poll();
                if (next != null) {
                    activeJourneys++;
                    long wait = scheduler.nanoTime() - next.intendedNanos;
                    if (wait > 0) {
                        if (recorder != null) {
                            recorder.waited(wait);
                        }
                        noteWait(wait);
                    }
                    dispatch(next);
                }
            }
            case CLOSED -> startClosedJourney(journey.connection);
            case PACED -> startPacedIteration(journey.connection, journey.iteration + 1, true);
        }
    }

    private void noteWait(long waitNanos) {
        waitedCount++;
        waitedTotalNanos += waitNanos;
        waitedMaxNanos = Math.max(waitedMaxNanos, waitNanos);
    }

    // ---- the end

    /** A phase bounded by a number of journeys (a warm-up) gets its grace from the moment the last one starts. */
    private void limitReached() {
        if (!stopScheduled && endNanos >= Long.MAX_VALUE / 4) {
            stopScheduled = true;
            scheduler.at(scheduler.nanoTime() + spec.graceNanos(), guarded(this::stop));
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
            Attempt never;
            while ((never = waiting.poll()) != null) {
                drop(never, -1, -1); // waiting for a concurrency slot: the user stopped sending
            }
            Timer t = timerHead.next;
            while (t != timerHead) {
                Timer next = t.next;
                if (t.atNanos >= endNanos) {
                    withdraw(t);
                }
                t = next;
            }
        }
        scheduler.at(now + spec.graceNanos(), guarded(this::stop));
        afterEvent();
    }

    private void withdraw(Timer timer) {
        timer.cancelled = true;
        timer.unlink();
        timers--;
        Attempt attempt = timer.attempt;
        if (attempt == null) {
            arrivalsDone = true; // the open model's next arrival
            return;
        }
        if (recorder != null) {
            recorder.withdraw(attempt.intendedNanos);
        }
        journeyDone(attempt.journey);
    }

    /** Runs fire at atNanos unless a user stop withdraws it first; attempt: what it would send, if any. */
    private void later(long atNanos, Attempt attempt, Runnable fire) {
        Timer timer = new Timer(atNanos, attempt, fire);
        timer.prev = timerHead.prev;
        timer.next = timerHead;
        timerHead.prev.next = timer;
        timerHead.prev = timer;
        timers++;
        scheduler.at(atNanos, guarded(timer));
    }

    private void stop() {
        if (finished) {
            return;
        }
        stopping = true;
        Attempt never;
        while ((never = waiting.poll()) != null) {
            drop(never, -1, -1);
        }
        if (inFlight > 0) {
            transport.cancelAll();
            scheduler.at(scheduler.nanoTime() + CANCEL_BACKSTOP_NANOS, guarded(this::dropUnanswered));
        }
        afterEvent();
    }

    /**
     * The transport did not complete every cancelled exchange: what is left is dropped and ends its journey
     * as a cancelled one does (a closed or paced connection then stops, since the phase is stopping).
     */
    private void dropUnanswered() {
        for (Attempt a = inFlightHead.next; a != inFlightHead; a = inFlightHead.next) {
            dropInFlight(a, -1);
        }
        afterEvent();
    }

    private void afterEvent() {
        if (recorder != null) {
            recorder.advance(scheduler.nanoTime());
        }
        checkDone();
    }

    private void checkDone() {
        if (finished) {
            return;
        }
        boolean sourcesDone = spec.model() == TesterSpec.Model.OPEN ? arrivalsDone : connectionsRunning <= 0;
        if (sourcesDone && inFlight == 0 && timers == 0 && waiting.isEmpty()) {
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

    /** The task, skipped once the phase has finished; a failure ends the run with that failure. */
    private Runnable guarded(Runnable task) {
        return () -> {
            if (finished) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                finished = true;
                onError.accept(e);
            }
        };
    }

    void post(Runnable task, long nanos) {
        scheduler.at(nanos, guarded(task));
    }

    /** A pending timer: a node of the pending-timer list, so a user stop can withdraw it. */
    private final class Timer implements Runnable {
        final long atNanos;
        final Attempt attempt;
        final Runnable fire;
        boolean cancelled;
        Timer prev;
        Timer next;

        Timer(long atNanos, Attempt attempt, Runnable fire) {
            this.atNanos = atNanos;
            this.attempt = attempt;
            this.fire = fire;
        }

        @Override
        public void run() {
            if (cancelled) {
                return;
            }
            unlink();
            timers--;
            fire.run();
        }

        void unlink() {
            if (prev != null) {
                prev.next = next;
                next.prev = prev;
                prev = null;
                next = null;
            }
        }
    }

    static final class Journey {
        final long arrival;
        final int connection;
        final long iteration;
        int position;

        Journey(long arrival, int connection, long iteration) {
            this.arrival = arrival;
            this.connection = connection;
            this.iteration = iteration;
        }
    }

    /** One request: the engine's {@link Exchange}, and a node of the in-flight list. */
    static final class Attempt implements Exchange {
        final Phase phase;
        final Journey journey;
        final RequestSpec request;
        final long intendedNanos;
        long releaseNanos;
        volatile long sentNanos = -1;
        boolean done;
        Attempt prev;
        Attempt next;

        Attempt() {
            this(null, null, null, 0);
        }

        Attempt(Phase phase, Journey journey, RequestSpec request, long intendedNanos) {
            this.phase = phase;
            this.journey = journey;
            this.request = request;
            this.intendedNanos = intendedNanos;
        }

        @Override
        public void sent(long actualSendNanos) {
            sentNanos = actualSendNanos;
        }

        @Override
        public void completed(long endNanos, int status, Outcome outcome, String detail) {
            phase.post(() -> phase.onCompleted(this, endNanos, status, outcome), endNanos);
        }

        void linkAfter(Attempt head) {
            next = head.next;
            prev = head;
            head.next.prev = this;
            head.next = this;
        }

        void unlink() {
            if (prev != null) {
                prev.next = next;
                next.prev = prev;
                prev = null;
                next = null;
            }
        }
    }
}
