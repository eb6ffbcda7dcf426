package io.loadsmith.tester.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine runs on its injected clock: no source of it reads the clock, sleeps or makes executors. */
class EngineSourcesTest {

    static final Path ROOT = Path.of("src/main/java/io/loadsmith/tester");
    static final List<String> PACKAGES = List.of("engine", "scheduler", "schedule", "transport", "record", "simulate", "result");

    @Test
    void engine_sources_never_call_nano_time_sleep_or_executors() throws IOException {
        List<String> offences = new ArrayList<>();
        int files = 0;
        for (String pkg : PACKAGES) {
            try (Stream<Path> paths = Files.list(ROOT.resolve(pkg))) {
                for (Path file : paths.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    String code = withoutComments(Files.readString(file));
                    for (String banned : List.of("System.nanoTime", "Thread.sleep", "Executors", "ExecutorService",
                            "currentTimeMillis")) {
                        if (code.contains(banned)) {
                            offences.add(file + ": " + banned);
                        }
                    }
                }
            }
        }
        assertThat(files).isGreaterThan(20);
        assertThat(offences).isEmpty();
    }

    @Test
    void the_check_sees_calls_outside_comments() {
        assertThat(withoutComments("/* System.nanoTime() */ long t = System.nanoTime(); // Thread.sleep"))
                .contains("System.nanoTime").doesNotContain("Thread.sleep");
    }

    static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }
}
