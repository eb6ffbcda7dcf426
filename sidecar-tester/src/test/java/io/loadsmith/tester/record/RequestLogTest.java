package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
}
