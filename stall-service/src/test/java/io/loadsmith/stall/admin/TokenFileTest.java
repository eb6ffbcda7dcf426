package io.loadsmith.stall.admin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenFileTest {

    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        return Files.writeString(dir.resolve("token"), content);
    }

    @Test
    void the_token_is_the_first_line_and_the_rest_of_the_file_is_ignored() throws IOException {
        assertThat(TokenFile.read(file("s3cret\nsecond line\n"))).isEqualTo("s3cret");
    }

    @Test
    void white_space_around_the_token_is_trimmed() throws IOException {
        assertThat(TokenFile.read(file(" \ts3cret \r\n"))).isEqualTo("s3cret");
    }

    @Test
    void a_file_without_a_final_newline_holds_its_token() throws IOException {
        assertThat(TokenFile.read(file("s3cret"))).isEqualTo("s3cret");
    }

    @Test
    void an_empty_file_is_refused_naming_the_file() throws IOException {
        Path empty = file("");
        assertThatThrownBy(() -> TokenFile.read(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(empty + ": the first line is empty (it must hold the token)");
    }

    @Test
    void a_blank_first_line_is_refused_even_when_a_later_line_has_text() throws IOException {
        Path blankFirst = file("  \ns3cret\n");
        assertThatThrownBy(() -> TokenFile.read(blankFirst)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(blankFirst + ": the first line is empty (it must hold the token)");
    }

    @Test
    void a_missing_file_is_refused_naming_the_file() {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> TokenFile.read(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(missing + " does not exist");
    }

    @Test
    void a_folder_is_refused_naming_it() {
        assertThatThrownBy(() -> TokenFile.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(dir + ": cannot read it (");
    }

    @Test
    void a_leading_tilde_is_the_home_folder() {
        String home = System.getProperty("user.home");
        assertThat(TokenFile.path("~/.loadsmith/token")).isEqualTo(Path.of(home, ".loadsmith", "token"));
        assertThat(TokenFile.path("~")).isEqualTo(Path.of(home));
        assertThat(TokenFile.path("~other/token")).isEqualTo(Path.of("~other/token"));
    }

    @Test
    void a_token_file_under_the_home_folder_is_read_through_its_tilde_path() throws IOException {
        String home = System.getProperty("user.home");
        System.setProperty("user.home", dir.toString());
        try {
            file("s3cret\n");
            assertThat(TokenFile.read(Path.of("~/token"))).isEqualTo("s3cret");
        } finally {
            System.setProperty("user.home", home);
        }
    }

    @Test
    void a_relative_path_is_relative_to_the_folder_of_the_file_naming_it_unless_it_starts_with_a_tilde() {
        Path base = Path.of("/etc/loadsmith");
        assertThat(TokenFile.path(base, "token.txt")).isEqualTo(Path.of("/etc/loadsmith/token.txt"));
        assertThat(TokenFile.path(base, "../token.txt")).isEqualTo(Path.of("/etc/token.txt"));
        assertThat(TokenFile.path(base, "/run/token")).isEqualTo(Path.of("/run/token"));
        assertThat(TokenFile.path(base, "~/token")).isEqualTo(Path.of(System.getProperty("user.home"), "token"));
    }
}
