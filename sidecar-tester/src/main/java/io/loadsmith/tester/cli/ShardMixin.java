package io.loadsmith.tester.cli;

import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.session.Sharding;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Option;

/** {@code --shard I/N} and {@code --start-at TIME}: a share of a load split across processes, and a common start. */
public final class ShardMixin {

    /** How far in the past a start may be (the time to start a JVM and read the scenario is not enough to refuse it). */
    static final long PAST_TOLERANCE_MILLIS = 1_000;
    /** How far ahead a start may be. */
    static final long AHEAD_LIMIT_MILLIS = 24 * 3_600_000L;

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Send only share I of N of the seeded load (0 <= I < N); the N shards together send "
                    + "exactly what one run would (docs/scale-out.md)")
    String shard;

    @Option(names = "--start-at", paramLabel = "TIME",
            description = "Start the counted run at TIME (ISO-8601, e.g. 2026-12-01T20:00:00Z, or epoch ms), "
                    + "the warm-up before it; at most 24 h ahead")
    String startAt;

    /** The sharding these options ask for, checked against the tester; bad values are bad input. */
    Sharding sharding(TesterSpec tester, long nowMillis) {
        int index = 0;
        int count = 1;
        if (shard != null) {
            int[] parsed = parseShard(shard);
            index = parsed[0];
            count = parsed[1];
            if (tester.model() != TesterSpec.Model.OPEN && index >= tester.connections()) {
                throw new BadInputException("--shard " + shard + ": a " + tester.model().wireName() + " tester with "
                        + tester.connections() + " connection(s) gives shard " + index + " none (connection k goes to "
                        + "shard k mod " + count + "); use at most " + tester.connections() + " shards");
            }
        }
        return new Sharding(index, count, startAt == null ? null : parseStartAt(startAt, nowMillis));
    }

    /** {@code I/N} as {I, N}. */
    static int[] parseShard(String text) {
        String[] parts = text.split("/", -1);
        try {
            if (parts.length == 2) {
                int index = Integer.parseInt(parts[0].trim());
                int count = Integer.parseInt(parts[1].trim());
                if (count >= 1 && index >= 0 && index < count) {
                    return new int[] {index, count};
                }
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new BadInputException("--shard must be I/N with 0 <= I < N, e.g. 0/3 (got \"" + text + "\")");
    }

    /** An ISO-8601 instant or epoch milliseconds, no more than 1 s past nor 24 h ahead of nowMillis. */
    static long parseStartAt(String text, long nowMillis) {
        long millis;
        try {
            millis = text.chars().allMatch(Character::isDigit) && !text.isEmpty() ? Long.parseLong(text)
                    : Instant.parse(text).toEpochMilli();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new BadInputException("--start-at must be an ISO-8601 instant (e.g. 2026-12-01T20:00:00Z) or epoch "
                    + "milliseconds (got \"" + text + "\")");
        }
        if (millis < nowMillis - PAST_TOLERANCE_MILLIS) {
            throw new BadInputException("--start-at " + text + " is " + (nowMillis - millis) + " ms in the past");
        }
        if (millis > nowMillis + AHEAD_LIMIT_MILLIS) {
            throw new BadInputException("--start-at " + text + " is more than 24 h ahead");
        }
        return millis;
    }
}
