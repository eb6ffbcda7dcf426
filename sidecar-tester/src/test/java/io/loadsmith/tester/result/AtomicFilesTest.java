package io.loadsmith.tester.result;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtomicFilesTest {

    @TempDir
    Path dir;

    private String[] names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void a_file_is_written_then_replaced_whole_and_no_temporary_file_stays() throws IOException {
        Path file = dir.resolve("sub/report.html");

        AtomicFiles.writeString(file, "first");
        AtomicFiles.writeString(file, "second");
        AtomicFiles.copy(file, dir.resolve("copy.html"));

        assertThat(Files.readString(file)).isEqualTo("second");
        assertThat(Files.readString(dir.resolve("copy.html"))).isEqualTo("second");
        assertThat(names()).containsExactly("copy.html", "sub");
    }

    @Test
    void content_that_fails_leaves_the_old_file_no_temporary_file_and_an_error_naming_the_file() throws IOException {
        Path file = dir.resolve("scenario.yaml");
        AtomicFiles.writeString(file, "old");

        assertThatThrownBy(() -> AtomicFiles.write(file, out -> {
            out.write("half".getBytes());
            throw new IOException("disk full");
        })).isInstanceOf(java.nio.file.FileSystemException.class).hasMessage(file + ": disk full");

        assertThat(Files.readString(file)).isEqualTo("old");
        assertThat(names()).containsExactly("scenario.yaml");
    }
}
