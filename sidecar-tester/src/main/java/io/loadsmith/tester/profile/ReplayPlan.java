package io.loadsmith.tester.profile;

import io.loadsmith.stall.plan.PlanException;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.result.RunResult;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A pause profile turned into an explicit stall plan (docs/replaying-pauses.md, "Replaying a profile"): the
 * profile's pauses whose offset lies in [from, to), those shorter than {@code min_duration} left out, each
 * offset taken from {@code from} and both offset and duration divided by {@code speed}; windows that touch (or,
 * by rounding, overlap) after that are merged into one, so the plan is valid. A profile two of whose pauses
 * overlap is refused, naming both: a JVM stops once at a time, so one of them is wrong (an older GC-log reader
 * gave, at 1 ms stamps, a collector's label to another safepoint and kept its own as a second pause), and a
 * merged window would replay it under the wrong label. {@link #replayed()} says, by plan index,
 * which pause each window replays (a merged window: the first pause's offset, the distinct sources joined
 * with {@code +} and the distinct labels with {@code " + "}), how long it lasted in the profile, and where and
 * how long the plan made its window.
 *
 * <pre>{@code
 * ReplayPlan replay = ReplayPlan.read(Path.of("profile.json"), ReplayPlan.ReplayRange.ALL.from(600_000_000_000L));
 * admin.arm(replay.plan().stalls(), replay.plan().kind());
 * }</pre>
 *
 * @param file     the profile it was read from (null when built from a profile in memory)
 * @param plan     the explicit plan, offsets from the moment of arming
 * @param replayed one per window of the plan, in its order
 * @param pauses   how many of the profile's pauses the plan replays (merged ones counted each)
 */
public record ReplayPlan(Path file, StallPlan plan, List<RunResult.Replayed> replayed, int pauses) {

    public ReplayPlan {
        replayed = List.copyOf(replayed);
    }

    /**
     * What to take of a profile, and how: times in nanoseconds of the profile.
     *
     * @param fromNanos        the first offset taken (>= 0; default 0)
     * @param toNanos          offsets from here on are left out; null: the profile's span
     * @param minDurationNanos pauses shorter than this are left out (>= 0; default 0: none)
     * @param speed            how much faster than recorded the plan plays (> 0; 2: offsets and durations halved)
     * @param kind             how the agent holds threads in a window
     */
    public record ReplayRange(long fromNanos, Long toNanos, long minDurationNanos, double speed, StallKind kind) {

        /** The whole profile at its own speed, as {@code block}. */
        public static final ReplayRange ALL = new ReplayRange(0, null, 0, 1.0, StallKind.BLOCK);

        public ReplayRange from(long nanos) {
            return new ReplayRange(nanos, toNanos, minDurationNanos, speed, kind);
        }

        public ReplayRange to(Long nanos) {
            return new ReplayRange(fromNanos, nanos, minDurationNanos, speed, kind);
        }

        public ReplayRange minDuration(long nanos) {
            return new ReplayRange(fromNanos, toNanos, nanos, speed, kind);
        }

        public ReplayRange speed(double value) {
            return new ReplayRange(fromNanos, toNanos, minDurationNanos, value, kind);
        }

        public ReplayRange kind(StallKind value) {
            return new ReplayRange(fromNanos, toNanos, minDurationNanos, speed, value);
        }
    }

    /**
     * The plan of the profile in {@code file}.
     *
     * @throws ProfileException naming the file when it cannot be read, is not a pause profile, or has no
     *                          pause in the range
     */
    public static ReplayPlan read(Path file, ReplayRange range) {
        if (!Files.isRegularFile(file)) {
            throw new ProfileException(file + ": no such file");
        }
        PauseProfile profile;
        try {
            profile = PauseProfiles.read(file);
        } catch (IOException e) {
            throw new ProfileException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        return of(profile, file, range);
    }

    /**
     * The plan of {@code profile}; {@code file} names it in messages (null: "the profile").
     *
     * @throws ProfileException for a range that is empty or out of order, no pause in it, or two pauses of the
     *                          profile that overlap (naming both)
     */
    public static ReplayPlan of(PauseProfile profile, Path file, ReplayRange range) {
        String name = file == null ? "the profile" : file.toString();
        long spanNanos = Math.round(profile.spanMs() * 1e6);
        long toNanos = range.toNanos() != null ? range.toNanos() : spanNanos;
        if (range.fromNanos() < 0 || range.minDurationNanos() < 0) {
            throw new ProfileException(name + ": from and min_duration must be >= 0");
        }
        if (!(range.speed() > 0) || Double.isInfinite(range.speed())) {
            throw new ProfileException(name + ": speed must be > 0 (got " + range.speed() + ")");
        }
        if (toNanos <= range.fromNanos()) {
            throw new ProfileException(name + ": the range [" + millis(range.fromNanos()) + ", " + millis(toNanos)
                    + ") holds no time: to must be after from" + (range.toNanos() == null
                    ? " (to defaults to the profile's span, " + millis(spanNanos) + ")" : ""));
        }
        refuseOverlaps(profile.pauses(), name);
        List<PauseProfile.Pause> taken = new ArrayList<>();
        for (PauseProfile.Pause pause : profile.pauses()) {
            long offsetNanos = Math.round(pause.offsetMs() * 1e6);
            long durationNanos = Math.round(pause.durationMs() * 1e6);
            if (offsetNanos >= range.fromNanos() && offsetNanos < toNanos && durationNanos >= range.minDurationNanos()) {
                taken.add(pause);
            }
        }
        if (taken.isEmpty()) {
            throw new ProfileException(name + ": no pause of " + profile.pauses().size() + " has its offset in ["
                    + millis(range.fromNanos()) + ", " + millis(toNanos) + ")"
                    + (range.minDurationNanos() > 0 ? " and lasts at least " + millis(range.minDurationNanos()) : ""));
        }
        taken.sort((a, b) -> Double.compare(a.offsetMs(), b.offsetMs()));
        List<PlannedStall> windows = new ArrayList<>();
        List<RunResult.Replayed> replayed = new ArrayList<>();
        List<PauseProfile.Pause> group = new ArrayList<>();
        long groupStart = 0;
        long groupEnd = 0;
        for (PauseProfile.Pause pause : taken) {
            long start = scaled(Math.round(pause.offsetMs() * 1e6) - range.fromNanos(), range.speed());
            long end = start + Math.max(1, scaled(Math.round(pause.durationMs() * 1e6), range.speed()));
            if (!group.isEmpty() && start <= groupEnd) {
                group.add(pause);
                groupEnd = Math.max(groupEnd, end);
                continue;
            }
            if (!group.isEmpty()) {
                windows.add(new PlannedStall(windows.size(), groupStart, groupEnd - groupStart));
                replayed.add(replayedOf(group, groupStart, groupEnd));
            }
            group = new ArrayList<>(List.of(pause));
            groupStart = start;
            groupEnd = end;
        }
        windows.add(new PlannedStall(windows.size(), groupStart, groupEnd - groupStart));
        replayed.add(replayedOf(group, groupStart, groupEnd));
        StallPlan plan;
        try {
            plan = StallPlan.explicit(windows, range.kind());
        } catch (PlanException e) {
            throw new ProfileException(name + ": " + e.getMessage() + " (narrow from and to, or raise min_duration)", e);
        }
        return new ReplayPlan(file, plan, replayed, taken.size());
    }

    /**
     * The plan armed {@code leadNanos} before the moment its offsets count from (a run's counted start):
     * every window moved by the lead, in the same order (0: {@link #plan()} itself).
     */
    public StallPlan planFrom(long leadNanos) {
        if (leadNanos == 0) {
            return plan;
        }
        List<PlannedStall> moved = new ArrayList<>();
        for (PlannedStall stall : plan.stalls()) {
            moved.add(new PlannedStall(stall.index(), stall.offsetNanos() + leadNanos, stall.durationNanos()));
        }
        return StallPlan.explicit(moved, plan.kind());
    }

    /** How long the plan lasts from the moment of arming: the end of its last window. */
    public long horizonNanos() {
        return plan.horizonNanos();
    }

    /**
     * Refuses pauses of which one starts before another has ended (touching is not overlapping): the first such
     * pair in start order, by index, offset, duration and label.
     */
    private static void refuseOverlaps(List<PauseProfile.Pause> pauses, String name) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < pauses.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> Math.round(pauses.get(i).offsetMs() * 1e6)));
        int latest = -1;
        long latestEndNanos = Long.MIN_VALUE;
        for (int i : order) {
            PauseProfile.Pause pause = pauses.get(i);
            long startNanos = Math.round(pause.offsetMs() * 1e6);
            if (startNanos < latestEndNanos) {
                throw new ProfileException(name + ": pauses[" + latest + "] (" + described(pauses.get(latest))
                        + ") and pauses[" + i + "] (" + described(pause) + ") overlap, and a JVM stops once at a time:"
                        + " read the GC log again with loadsmith pauses from-gc-log (an older reader, at 1 ms stamps, gave"
                        + " a collection's label to another safepoint), or remove the wrong one");
            }
            long endNanos = startNanos + Math.round(pause.durationMs() * 1e6);
            if (endNanos > latestEndNanos) {
                latest = i;
                latestEndNanos = endNanos;
            }
        }
    }

    /** {@code 924.96 ms for 4.04 ms, gc: Z old: Pause Relocate Start}. */
    private static String described(PauseProfile.Pause pause) {
        return millis(Math.round(pause.offsetMs() * 1e6)) + " for " + millis(Math.round(pause.durationMs() * 1e6))
                + ", " + pause.source() + ": " + pause.label();
    }

    private static long scaled(long nanos, double speed) {
        return speed == 1.0 ? nanos : Math.round(nanos / speed);
    }

    /** What the window [startNanos, endNanos) of the plan, made of {@code group}'s pauses, replays. */
    private static RunResult.Replayed replayedOf(List<PauseProfile.Pause> group, long startNanos, long endNanos) {
        Set<String> sources = new LinkedHashSet<>();
        Set<String> labels = new LinkedHashSet<>();
        long profileEndNanos = 0;
        for (PauseProfile.Pause pause : group) {
            sources.add(pause.source());
            labels.add(pause.label());
            long endInProfile = Math.round(pause.offsetMs() * 1e6) + Math.round(pause.durationMs() * 1e6);
            profileEndNanos = Math.max(profileEndNanos, endInProfile);
        }
        sources.remove(null);
        labels.remove(null);
        double offsetMs = group.get(0).offsetMs();
        return new RunResult.Replayed(sources.isEmpty() ? null : String.join("+", sources),
                labels.isEmpty() ? null : String.join(" + ", labels), offsetMs,
                (profileEndNanos - Math.round(offsetMs * 1e6)) / 1e6, startNanos / 1e6, (endNanos - startNanos) / 1e6);
    }

    /** {@code 1500 ms}, {@code 2.5 ms}: a plan's times in messages. */
    private static String millis(long nanos) {
        return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + " ms";
    }
}
