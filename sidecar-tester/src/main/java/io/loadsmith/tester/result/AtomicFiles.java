package io.loadsmith.tester.result;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file so that a reader sees the old one or the whole new one, never half of it: the content goes
 * to a temporary file in the same folder, which is then renamed over the target (an atomic move, or a plain
 * replacing move where the file system cannot move atomically). A write that fails (a full disk) leaves
 * the old file, or none, and no temporary file, and is reported naming the target file.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /** What writes a file's content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code file} from {@code content}, creating its folder. */
    public static void write(Path file, Content content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temp)) {
                content.writeTo(out);
            } catch (FileSystemException e) {
                throw e;
            } catch (IOException e) {
                throw named(file, e);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A failed write (a full disk) as an error naming the file it was for, not its temporary file:
     * {@code results/x/results.json: No space left on device}.
     */
    private static FileSystemException named(Path file, IOException e) {
        FileSystemException named = new FileSystemException(file.toString(), null,
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        named.initCause(e);
        return named;
    }

    /** Writes {@code text} as UTF-8. */
    public static void writeString(Path file, String text) throws IOException {
        write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Copies {@code from} to {@code to}. */
    public static void copy(Path from, Path to) throws IOException {
        write(to, out -> Files.copy(from, out));
    }
}
