package io.loadsmith.tester.align;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PauseMeetingsTest {

    private static final long MS = 1_000_000L;
    private static final long NEVER = -1;
    /** Two pauses: [1200 ms, 1210 ms) and [1500 ms, 1600 ms). */
    private static final List<StallWindow> PAUSES = List.of(new StallWindow(1, 1500 * MS, 1600 * MS, 0),
            new StallWindow(0, 1200 * MS, 1210 * MS, 0));

    @TempDir
    Path dir;

    /** A run counted over [1000 ms, 2000 ms) with a warm-up request before it. */
    private Path plantedLog() throws Exception {
        Path file = dir.resolve(RequestLog.FILE_NAME);
        try (RequestLog.Writer log = RequestLog.create(file, 1000 * MS)) {
            add(log, 900, 900, 1205);   // warm-up: not counted, though it overlaps the first pause
            add(log, 1100, 1100, 1150); // before both: 50 ms
            add(log, 1190, 1190, 1201); // alive when the first pause starts: met
            add(log, 1205, 1211, 1220); // intended inside the first pause: met
            add(log, 1210, 1210, 1215); // intended at the first pause's end: not met
            add(log, 1400, 1450, 1700); // alive across the second pause: met, 300 ms
            add(log, 1550, NEVER, NEVER); // intended inside the second pause, never sent: met
            add(log, 1300, 1300, 1400); // between them: 100 ms
            add(log, 1450, 1450, 1500); // ends at the second pause's start: not met, 50 ms
        }
        return file;
    }

    private static void add(RequestLog.Writer log, long intendedMs, long sentMs, long endMs) {
        log.append(intendedMs * MS, sentMs < 0 ? NEVER : sentMs * MS, endMs < 0 ? NEVER : endMs * MS, 0, 0,
                endMs < 0 ? 0 : 200, endMs < 0 ? Outcome.CANCELLED : Outcome.OK);
    }

    @Test
    void requests_whose_intended_send_or_lifetime_meets_a_pause_are_counted_once_each() throws Exception {
        PauseMeetings meetings = PauseMeetings.count(plantedLog(), PAUSES, 1000 * MS, 40 * MS);

        assertThat(meetings.met()).isEqualTo(4);
    }

    @Test
    void requests_above_the_threshold_that_met_a_pause_are_counted_among_those_above_it() throws Exception {
        PauseMeetings meetings = PauseMeetings.count(plantedLog(), PAUSES, 1000 * MS, 40 * MS);

        assertThat(meetings.above()).isEqualTo(4);
        assertThat(meetings.aboveMet()).isEqualTo(1);
        assertThat(meetings.material()).isTrue();
    }

    @Test
    void a_tail_that_met_no_pause_is_not_material() throws Exception {
        PauseMeetings meetings = PauseMeetings.count(plantedLog(), List.of(PAUSES.get(1)), 1000 * MS, 40 * MS);

        assertThat(meetings.met()).isEqualTo(2);
        assertThat(meetings.above()).isEqualTo(4);
        assertThat(meetings.aboveMet()).isZero();
        assertThat(meetings.material()).isFalse();
    }

    @Test
    void no_pause_meets_no_request() throws Exception {
        PauseMeetings meetings = PauseMeetings.count(plantedLog(), List.of(), 1000 * MS, 40 * MS);

        assertThat(meetings).isEqualTo(new PauseMeetings(0, 4, 0));
    }

    @Test
    void exactly_ten_percent_of_the_tail_is_not_material_and_more_is() {
        assertThat(new PauseMeetings(1, 10, 1).material()).isFalse();
        assertThat(new PauseMeetings(2, 10, 2).material()).isTrue();
        assertThat(new PauseMeetings(0, 0, 0).material()).isFalse();
    }
}
