package io.loadsmith.tester.schedule;

/**
 * One share of an {@link ArrivalSchedule}, split by seeded marks: every arrival of the whole schedule gets
 * an independent mark in [0, shares), {@code floor(marks.uniform(index) * shares)} (a pure function of the
 * marks' seed and name and of the arrival's index in the whole schedule, {@link ArrivalStreams}), and
 * share i yields exactly the arrivals marked i, at their offsets in the whole schedule.
 *
 * <ul>
 *   <li><b>The union is the one schedule.</b> The shares 0 .. shares-1 of the same schedule and marks are
 *       disjoint and together hold every arrival of the whole schedule, at the same offsets to the
 *       nanosecond: splitting a run changes where an arrival is sent from, never when.</li>
 *   <li><b>Each share is a thinning.</b> Every arrival is kept independently with probability 1/shares,
 *       so a share of a Poisson process at rate r is a Poisson process at r/shares (and a share of a ramp
 *       is the ramp's process at 1/shares of its rate), which striping by {@code index mod shares} is not
 *       (its gaps are sums of {@code shares} exponential gaps).</li>
 *   <li><b>Shares of shares.</b> {@link #index()} is the arrival's index in the whole schedule, so a share
 *       can be split again: shards of a run across processes, then loops within a shard,
 *       {@code schedule.share(shard, shards, ArrivalStreams.of(seed, "shard")).share(loop, loops,
 *       ArrivalStreams.of(seed, "loop"))}. Give each level marks of its own name: marks of the same name
 *       would give an arrival the same mark at both levels.</li>
 * </ul>
 *
 * Each share walks the whole schedule (one draw per arrival of it). Not thread-safe: one consumer walks it
 * once, like any schedule.
 */
public final class ScheduleShare implements ArrivalSchedule {

    private final ArrivalSchedule whole;
    private final int share;
    private final int shares;
    private final ArrivalStreams marks;

    /**
     * @param whole  the schedule to split (walked by this share only)
     * @param share  which share, in [0, shares)
     * @param shares how many shares, >= 1
     * @param marks  the marks' stream; the same for every share of one split
     */
    public ScheduleShare(ArrivalSchedule whole, int share, int shares, ArrivalStreams marks) {
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("share must be in [0, " + shares + ") of shares >= 1 (got " + share
                    + " of " + shares + ")");
        }
        this.whole = whole;
        this.share = share;
        this.shares = shares;
        this.marks = marks;
    }

    /** The mark in [0, shares) of the arrival of index {@code index} in the whole schedule. */
    public static int mark(ArrivalStreams marks, long index, int shares) {
        return (int) (marks.uniform(index) * shares);
    }

    @Override
    public long nextOffsetNanos() {
        long offset;
        while ((offset = whole.nextOffsetNanos()) >= 0) {
            if (shares == 1 || mark(marks, whole.index(), shares) == share) {
                return offset;
            }
        }
        return -1;
    }

    @Override
    public long index() {
        return whole.index();
    }
}
