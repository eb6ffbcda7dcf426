package io.loadsmith.tester.cli;

import io.loadsmith.tester.result.ResultsDirs;

import java.io.IOException;
import java.nio.file.Path;

/** {@link ResultsDirs#prepare} with a folder that already holds results answered as bad input (exit 2). */
final class CliDirs {

    private CliDirs() {
    }

    static Path prepare(Path out, String name) throws IOException {
        try {
            return ResultsDirs.prepare(out, name);
        } catch (IllegalStateException e) {
            throw new BadInputException(e.getMessage());
        }
    }
}
