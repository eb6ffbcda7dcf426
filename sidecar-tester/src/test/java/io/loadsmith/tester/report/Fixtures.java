package io.loadsmith.tester.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Copies a fixture results.json from src/test/resources/report/NAME into a fresh run directory. */
final class Fixtures {
    private Fixtures() {}

    static Path runDir(String name, Path parent) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        try (InputStream in = Fixtures.class.getResourceAsStream("/report/" + name + "/results.json")) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            Files.copy(in, dir.resolve("results.json"));
        }
        return dir;
    }
}
