package io.loadsmith.stall.clock;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Everything but SystemClock takes a Clock, so that tests can pass a virtual one. */
class OnlySystemClockReadsTheClockTest {

    private static final Pattern CODE_CALL = Pattern.compile("^(?!\\s*(\\*|/\\*\\*|//)).*System\\.nanoTime\\(\\)");

    @Test
    void no_main_source_but_system_clock_calls_system_nano_time() throws IOException {
        Path sources = Path.of("src/main/java");
        assertThat(sources).isDirectory();
        List<String> callers = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java")).sorted()::iterator) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (CODE_CALL.matcher(lines.get(i)).find()) {
                        callers.add(sources.relativize(file) + ":" + (i + 1));
                    }
                }
            }
        }
        assertThat(callers).containsExactly("io/loadsmith/stall/clock/SystemClock.java:9");
    }
}
