package io.loadsmith.stall;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of loadsmith and the commit it was built from, as the build wrote them into
 * {@code build.properties} beside this class. A build outside a git checkout (from a source archive) has
 * the commit {@value #UNKNOWN}. Used by {@code loadsmith --version}, the agent's {@code --version} and
 * {@code GET /health}.
 *
 * <pre>{@code
 * BuildInfo.current().describe()   // "0.1.0 (commit 3f2a9c1)"
 * }</pre>
 */
public record BuildInfo(String version, String commit) {

    /** The commit (or version) when the build could not tell it. */
    public static final String UNKNOWN = "unknown";

    private static final BuildInfo CURRENT = load();

    /** What this copy of loadsmith was built as. */
    public static BuildInfo current() {
        return CURRENT;
    }

    /** {@code VERSION (commit COMMIT)}. */
    public String describe() {
        return version + " (commit " + commit + ")";
    }

    static BuildInfo of(Properties properties) {
        return new BuildInfo(valueOrUnknown(properties.getProperty("version")),
                valueOrUnknown(properties.getProperty("commit")));
    }

    /** An unfilled placeholder ({@code ${git.commit.id.abbrev}} when git was not there) reads as unknown. */
    private static String valueOrUnknown(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? UNKNOWN : value.strip();
    }

    private static BuildInfo load() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return of(properties);
    }
}
