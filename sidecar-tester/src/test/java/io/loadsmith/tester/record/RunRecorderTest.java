package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RunRecorderTest {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void files_written_by_a_writer_thread_are_the_bytes_written_on_the_recording_thread() throws Exception {
        Path direct = dir.resolve("direct");
        Path threaded = dir.resolve("threaded");
        record(new RunRecorder(direct, 0, 50 * MS, 0, step -> "s" + step, false, Runnable::run));
        java.util.concurrent.ExecutorService writer = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            record(new RunRecorder(threaded, 0, 50 * MS, 0, step -> "s" + step, false, writer));
        } finally {
            writer.shutdown();
        }
        for (String file : List.of(RequestLog.FILE_NAME, RunRecorder.HLOG_FILE_NAME)) {
            byte[] expected = java.nio.file.Files.readAllBytes(direct.resolve(file));
            assertThat(java.nio.file.Files.readAllBytes(threaded.resolve(file))).as(file).isEqualTo(expected);
        }
        assertThat(java.nio.file.Files.size(direct.resolve(RequestLog.FILE_NAME)))
                .isEqualTo(RequestLog.HEADER_BYTES + 20_000L * RequestLog.RECORD_BYTES);
    }

    /** 20,000 requests over 20 s (many buffers of the request log, 20 seconds of intervals), two steps. */
    private static void record(RunRecorder recorder) throws IOException {
        try (recorder) {
            for (int i = 0; i < 20_000; i++) {
                long intended = i * MS;
                recorder.expect(intended);
                recorder.completed(intended, intended, intended + 10_000, intended + (1 + i % 7) * MS, i % 3, i % 2, 200,
                        i % 11 == 0 ? Outcome.HTTP_STATUS : Outcome.OK);
                recorder.advance(intended + (1 + i % 7) * MS);
            }
            recorder.finish(20 * S);
            assertThat(recorder.timeline()).hasSize(20);
        }
    }

    @Test
    void a_discarding_recorder_counts_and_summarises_like_any_other_but_writes_no_file() throws IOException {
        try (RunRecorder recorder = RunRecorder.discarding(0, 50 * MS, 0, step -> "s", false)) {
            for (int i = 0; i < 5_000; i++) { // more than one buffer of the request log
                long intended = i * MS;
                recorder.expect(intended);
                recorder.completed(intended, intended, intended, intended + 2 * MS, -1, 0, 200, Outcome.OK);
                recorder.advance(intended + 2 * MS);
            }
            recorder.finish(5 * S);
            assertThat(recorder.total().completed()).isEqualTo(5_000);
            assertThat(recorder.timeline()).hasSize(5);
        }
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void interval_log_is_read_back_by_hdr_histograms_own_reader_per_second_and_tag() throws IOException {
        long start = 5 * S;
        try (RunRecorder recorder = new RunRecorder(dir, start, 50 * MS, 0, step -> "s" + step, false)) {
            // 3 seconds: second 0 gets 10 requests of 2 ms; second 1 gets 5 of 2 ms service, 80 ms corrected;
            // second 2 is empty; two step ids so the step tags are written too
            for (int i = 0; i < 10; i++) {
                long intended = start + i * 50 * MS;
                recorder.expect(intended);
                recorder.completed(intended, intended, intended, intended + 2 * MS, -1, i % 2, 200, Outcome.OK);
            }
            for (int i = 0; i < 5; i++) {
                long intended = start + S + i * 100 * MS;
                recorder.expect(intended);
                recorder.completed(intended, intended, intended + 78 * MS, intended + 80 * MS, -1, 0, 200, Outcome.OK);
            }
            recorder.advance(start + 10 * S);
            recorder.finish(3 * S);

            assertThat(recorder.correctedAboveObjective()).isEqualTo(5);
            assertThat(recorder.serviceAboveObjective()).isZero();
            assertThat(recorder.timeline()).extracting(SecondSummary::count).containsExactly(10L, 5L, 0L);
        }

        Map<String, List<Histogram>> byTag = new HashMap<>();
        List<Double> starts = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(dir.resolve(RunRecorder.HLOG_FILE_NAME).toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                byTag.computeIfAbsent(h.getTag(), t -> new ArrayList<>()).add((Histogram) h);
                if ("service".equals(h.getTag())) {
                    starts.add(h.getStartTimeStamp() / 1000.0);
                }
            }
        }
        assertThat(byTag.keySet()).containsExactlyInAnyOrder("service", "corrected", "service.s0", "corrected.s0",
                "service.s1", "corrected.s1");
        assertThat(starts).containsExactly(0.0, 1.0, 2.0);
        assertThat(byTag.get("corrected")).extracting(Histogram::getTotalCount).containsExactly(10L, 5L, 0L);
        assertThat(byTag.get("corrected").get(1).getMaxValue()).isEqualTo(Histograms.create().highestEquivalentValue(80_000)); // 80 ms in µs
        assertThat(byTag.get("service").get(1).getMaxValue()).isEqualTo(Histograms.create().highestEquivalentValue(2_000));
        assertThat(byTag.get("service.s1").get(0).getTotalCount()).isEqualTo(5);
    }

    @Test
    void a_second_is_written_only_once_nothing_intended_in_it_is_in_flight() throws IOException {
        try (RunRecorder recorder = new RunRecorder(dir, 0, 50 * MS, 0, step -> "s", false)) {
            recorder.expect(100 * MS);
            recorder.expect(1100 * MS);
            recorder.completed(1100 * MS, 1100 * MS, 1100 * MS, 1101 * MS, -1, 0, 200, Outcome.OK);
            recorder.advance(3 * S);
            assertThat(recorder.timeline()).isEmpty();

            recorder.completed(100 * MS, 100 * MS, 100 * MS, 3 * S, -1, 0, 200, Outcome.OK);
            recorder.advance(3 * S);
            assertThat(recorder.timeline()).extracting(SecondSummary::tS).containsExactly(0L, 1L);
            recorder.finish(2 * S);
        }
    }

    @Test
    void both_latencies_are_recorded_together_and_errors_and_drops_are_counted() throws IOException {
        try (RunRecorder recorder = new RunRecorder(dir, 0, 10 * MS, 0, step -> "s", false)) {
            recorder.expect(0);
            recorder.completed(0, 0, 1 * MS, 21 * MS, -1, 0, 500, Outcome.HTTP_STATUS);
            recorder.expect(0);
            recorder.completed(0, 0, -1, 1 * MS, -1, 0, 0, Outcome.REFUSED);
            recorder.expect(0);
            recorder.dropped(0, 2 * MS, 30 * MS, -1, 0);
            recorder.finish(S);

            assertThat(recorder.total().service().getTotalCount()).isEqualTo(1);
            assertThat(recorder.total().corrected().getTotalCount()).isEqualTo(1);
            // sent = completed + errors (the refused one ended, so it counts as sent); the dropped one had
            // reached the socket, yet it is dropped, not sent: scheduled = sent + dropped + skipped
            assertThat(recorder.total().completed()).isZero();
            assertThat(recorder.total().errors()).isEqualTo(2);
            assertThat(recorder.total().sent()).isEqualTo(2);
            assertThat(recorder.total().dropped()).isEqualTo(1);
            assertThat(recorder.total().droppedAfterSend()).isEqualTo(1);
            assertThat(recorder.scheduled()).isEqualTo(3);
            assertThat(recorder.sendLateness().getMaxValue()).isEqualTo(1000);
        }
    }

    @Test
    void a_request_created_after_its_second_was_written_goes_to_the_earliest_open_second() throws IOException {
        try (RunRecorder recorder = new RunRecorder(dir, 0, 50 * MS, 0, step -> "s", false)) {
            recorder.expect(1100 * MS);
            recorder.advance(3 * S); // second 0 (empty) is written; second 1 has a request in flight
            recorder.expect(500 * MS); // a scheduler far behind: second 0 is gone
            recorder.completed(500 * MS, 500 * MS, 3 * S, 3 * S + MS, -1, 0, 200, Outcome.OK);
            recorder.completed(1100 * MS, 1100 * MS, 1100 * MS, 1101 * MS, -1, 0, 200, Outcome.OK);
            recorder.finish(2 * S);

            assertThat(recorder.lateToInterval()).isEqualTo(1);
            assertThat(recorder.timeline()).extracting(SecondSummary::count).containsExactly(0L, 2L);
            assertThat(recorder.total().completed()).isEqualTo(2);
            assertThat(recorder.total().corrected().getMaxValue())
                    .isEqualTo(Histograms.create().highestEquivalentValue(2_501_000));
        }
    }

    @Test
    void an_interval_log_on_a_full_disk_fails_the_recording_naming_the_file_and_neither_file_is_left()
            throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isWritable(Path.of("/dev/full")),
                "no /dev/full here");
        Path hlog = java.nio.file.Files.createSymbolicLink(dir.resolve(RunRecorder.HLOG_FILE_NAME), Path.of("/dev/full"));
        RunRecorder recorder = new RunRecorder(dir, 0, 50 * MS, 0, step -> "s", false);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
            for (int i = 0; i < 3_000; i++) {
                long intended = i * MS;
                recorder.expect(intended);
                recorder.completed(intended, intended, intended, intended + 2 * MS, -1, 0, 200, Outcome.OK);
                recorder.advance(intended + 2 * MS);
            }
        }).isInstanceOf(java.io.UncheckedIOException.class).hasMessageEndingWith(hlog + ": No space left on device");
        org.assertj.core.api.Assertions.assertThatThrownBy(recorder::close)
                .isInstanceOf(java.nio.file.FileSystemException.class)
                .hasMessage(hlog + ": No space left on device");
        assertThat(hlog).doesNotExist();
        assertThat(dir.resolve(RequestLog.FILE_NAME)).doesNotExist();
    }
}
