package io.loadsmith.stall.admin;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The admin token file, one rule wherever a token is read from a file (the agent's {@code token-file=},
 * {@link AdminConfig#tokenFile()}, the tester's {@code --token-file} and a scenario's or experiment's
 * {@code token_file}): the token is the file's first line with surrounding white space trimmed; the rest
 * of the file is ignored. A path that is {@code ~} or starts with {@code ~/} is in the user's home folder.
 * A missing or unreadable file, an empty file and a blank first line are refused with a message that
 * names the file.
 *
 * <pre>{@code
 * String token = TokenFile.read(TokenFile.path("~/.loadsmith/token"));
 * }</pre>
 */
public final class TokenFile {

    private TokenFile() {
    }

    /** The path text names: {@code ~} or a leading {@code ~/} is the user's home folder. */
    public static Path path(String text) {
        if (text.equals("~") || text.startsWith("~/")) {
            return Path.of(System.getProperty("user.home") + text.substring(1));
        }
        return Path.of(text);
    }

    /** As {@link #path(String)}, a relative path being relative to baseDir (the folder of the file naming it). */
    public static Path path(Path baseDir, String text) {
        Path path = path(text);
        return path.isAbsolute() ? path : baseDir.resolve(path).normalize();
    }

    /**
     * The token in file (its path expanded as by {@link #path(String)}).
     *
     * @throws IllegalArgumentException if the file is missing, unreadable, empty or its first line is blank;
     *                                  the message starts with the file's path
     */
    public static String read(Path file) {
        Path path = path(file.toString());
        String firstLine;
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            firstLine = reader.readLine();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(path + " does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(path + ": cannot read it (" + e + ")", e);
        }
        String token = firstLine == null ? "" : firstLine.strip();
        if (token.isEmpty()) {
            throw new IllegalArgumentException(path + ": the first line is empty (it must hold the token)");
        }
        return token;
    }
}
