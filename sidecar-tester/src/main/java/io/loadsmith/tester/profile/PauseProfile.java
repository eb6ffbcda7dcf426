package io.loadsmith.tester.profile;

import java.util.List;

/**
 * The pauses a service really had, as offsets from the profile's start (docs/replaying-pauses.md, schema
 * {@code docs/schemas/pause-profile.schema.json}): what a replay arms as an explicit stall plan.
 *
 * @param schema       {@value #SCHEMA}
 * @param origin       where the pauses were read
 * @param spanMs       the time the profile covers, from its start (offset 0) to its last line or page
 * @param resolutionMs how far an offset or a duration may be off, from the source's time stamps
 * @param pauses       in start order
 * @param unread       lines of the source that were not understood or not placed (counted, never dropped silently)
 */
public record PauseProfile(String schema, Origin origin, double spanMs, double resolutionMs, List<Pause> pauses,
                           Unread unread) {

    public static final String SCHEMA = "loadsmith.pause-profile/1";

    public PauseProfile {
        pauses = pauses == null ? List.of() : List.copyOf(pauses);
    }

    /**
     * Where the pauses came from: {@code kind} {@code gc-log} (file, the collector its log named, the time
     * decoration read; offset 0 is the JVM's start: {@code jvm-start}) or {@code agent} (its admin URL; offset 0
     * is the recording's start: {@code recording-start}).
     */
    public record Origin(String kind, String file, String collector, String decoration, String start, String admin) {
    }

    /**
     * One pause: from offsetMs after the profile's start, for durationMs. source: {@code gc} (a collector's
     * pause), {@code safepoint} (another stop of every Java thread) or {@code host}; label says which, in the
     * source's own words (e.g. {@code G1 Pause Young (Normal) (G1 Evacuation Pause)}).
     */
    public record Pause(double offsetMs, double durationMs, String source, String label) {
    }

    /** How many lines were not understood, and the first few of them (line number and text). */
    public record Unread(long lines, List<Line> first) {

        public Unread {
            first = first == null ? List.of() : List.copyOf(first);
        }
    }

    /** A line of the source, by number from 1. */
    public record Line(long line, String text) {
    }
}
