package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestLogTest {

    @TempDir
    Path dir;

    @Test
    void records_read_back_exactly_as_written_across_buffer_boundaries() throws IOException {
        Path file = dir.resolve(RequestLog.FILE_NAME);
        List<RequestRecord> written = new ArrayList<>();
        Outcome[] outcomes = Outcome.values();
        try (RequestLog.Writer log = RequestLog.create(file, 123_456_789L)) {
            for (int i = 0; i < 10_000; i++) {
                RequestRecord r = new RequestRecord(i * 1_000L, i % 7 == 0 ? -1 : i * 1_000L + 5, i * 1_000L + 99,
                        i % 3 - 1, i % 4, 200 + i % 5, outcomes[i % outcomes.length]);
                log.append(r);
                written.add(r);
            }
        }
        assertThat(Files.size(file)).isEqualTo(RequestLog.HEADER_BYTES + 10_000L * RequestLog.RECORD_BYTES);

        List<RequestRecord> read = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(file)) {
            assertThat(reader.runStartNanos()).isEqualTo(123_456_789L);
            assertThat(reader.recordCount()).isEqualTo(10_000);
            reader.forEachRemaining(read::add);
        }
        assertThat(read).isEqualTo(written);
    }

    @Test
    void a_file_that_is_not_a_request_log_is_refused_with_its_name() throws IOException {
        Path file = dir.resolve("other.bin");
        Files.write(file, new byte[64]);

        assertThatThrownBy(() -> RequestLog.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("other.bin").hasMessageContaining("not a loadsmith request log");
    }

    @Test
    void the_replica_that_served_a_request_reads_back_with_it() throws IOException {
        Path file = dir.resolve(RequestLog.FILE_NAME);
        try (RequestLog.Writer log = RequestLog.create(file, 5L)) {
            log.append(1, 2, 3, 0, 0, 200, Outcome.OK, 2);
            log.append(4, 5, 6, 0, 0, 200, Outcome.OK);
        }

        try (RequestLog.Reader reader = RequestLog.read(file)) {
            assertThat(reader.next()).isEqualTo(new RequestRecord(1, 2, 3, 0, 0, 200, Outcome.OK, 2));
            assertThat(reader.next()).isEqualTo(new RequestRecord(4, 5, 6, 0, 0, 200, Outcome.OK, 0));
        }
    }

    @Test
    void a_log_cut_in_the_middle_of_a_record_reads_its_whole_records_and_says_it_ends_early() throws IOException {
        Path file = dir.resolve(RequestLog.FILE_NAME);
        try (RequestLog.Writer log = RequestLog.create(file, 0)) {
            log.append(new RequestRecord(1, 2, 3, 0, 0, 200, Outcome.OK));
            log.append(new RequestRecord(4, 5, 6, 0, 0, 200, Outcome.OK));
        }
        Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(file),
                RequestLog.HEADER_BYTES + RequestLog.RECORD_BYTES + 10));

        try (RequestLog.Reader reader = RequestLog.read(file)) {
            assertThat(reader.endsEarly()).isTrue();
            assertThat(reader.recordCount()).isEqualTo(1);
            assertThat(reader.next()).isEqualTo(new RequestRecord(1, 2, 3, 0, 0, 200, Outcome.OK));
            assertThat(reader.hasNext()).isFalse();
        }
    }

    @Test
    void a_version_1_log_reads_with_no_replica() throws IOException {
        Path file = dir.resolve("v1.bin");
        ByteBuffer bytes = ByteBuffer.allocate(RequestLog.HEADER_BYTES + 2 * 37);
        bytes.put(new byte[] {'L', 'S', 'R', 'E', 'Q', 'L', 'O', 'G'}).putInt(1).putInt(37).putLong(77L).putLong(0);
        bytes.putLong(10).putLong(11).putLong(12).putInt(3).putInt(1).putInt(200).put((byte) Outcome.OK.ordinal());
        bytes.putLong(20).putLong(-1).putLong(-1).putInt(-1).putInt(0).putInt(0).put((byte) Outcome.CANCELLED.ordinal());
        Files.write(file, bytes.array());

        List<RequestRecord> read = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(file)) {
            assertThat(reader.runStartNanos()).isEqualTo(77L);
            reader.forEachRemaining(read::add);
        }

        assertThat(read).containsExactly(new RequestRecord(10, 11, 12, 3, 1, 200, Outcome.OK, 0),
                new RequestRecord(20, -1, -1, -1, 0, 0, Outcome.CANCELLED, 0));
    }

    @Test
    void a_log_shorter_than_its_header_is_refused_saying_the_run_did_not_finish() throws IOException {
        Path file = dir.resolve(RequestLog.FILE_NAME);
        Files.write(file, new byte[10]);

        assertThatThrownBy(() -> RequestLog.read(file)).isInstanceOf(java.io.EOFException.class)
                .hasMessage(file + ": not a whole request log (10 bytes, its header alone is 32): the run that "
                        + "wrote it did not finish");
    }

    @Test
    void a_log_on_a_full_disk_fails_naming_the_file_and_is_removed() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "no /dev/full here");
        Path file = Files.createSymbolicLink(dir.resolve(RequestLog.FILE_NAME), Path.of("/dev/full"));
        RequestLog.Writer log = RequestLog.create(file, 0);
        RequestRecord r = new RequestRecord(1, 2, 3, 0, 0, 200, Outcome.OK);

        assertThatThrownBy(() -> {
            for (int i = 0; i < 10_000; i++) {
                log.append(r);
            }
        }).isInstanceOf(java.io.UncheckedIOException.class)
                .hasCauseInstanceOf(java.nio.file.FileSystemException.class)
                .cause().hasMessage(file + ": No space left on device");
        assertThatThrownBy(log::close).hasMessage(file + ": No space left on device");
        assertThat(file).doesNotExist();
    }
}
