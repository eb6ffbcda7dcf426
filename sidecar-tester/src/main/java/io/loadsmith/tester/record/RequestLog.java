package io.loadsmith.tester.record;

import io.loadsmith.tester.transport.Outcome;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;

/**
 * The per-request log of a run ({@code requests.bin}): every request as one fixed-size binary record,
 * streamed to disk through a 64 KiB buffer, so a run's memory does not grow with its length.
 *
 * <p>Format (big-endian): a 32-byte header {@code "LSREQLOG"}, int version (2), int record size (41),
 * long run start in nanoseconds, long reserved (0); then one 41-byte record per request: long intended,
 * long sent (-1 if never sent), long end (-1 if never ended), int connection, int step, int status (the HTTP
 * status; for {@link Outcome#GRPC_STATUS} the gRPC status code), byte outcome (the ordinal of {@link Outcome}), int served by (the replica that answered, as its
 * {@code Loadsmith-Replica} header named it: a number of {@link io.loadsmith.tester.transport.ServedBy}, 0
 * when the answer had no such header). Records are in the order requests ended (or were dropped).
 * Version 1 files (37-byte records, without served by) are still read, their served by 0.
 *
 * <pre>{@code
 * try (RequestLog.Reader records = RequestLog.read(dir.resolve("requests.bin"))) {
 *     while (records.hasNext()) {
 *         RequestRecord r = records.next();
 *     }
 * }
 * }</pre>
 */
public final class RequestLog {

    /** The file name in a run's folder. */
    public static final String FILE_NAME = "requests.bin";
    public static final int VERSION = 2;
    public static final int HEADER_BYTES = 32;
    public static final int RECORD_BYTES = 41;
    /** Version 1: the same records without served by. */
    static final int V1_RECORD_BYTES = 37;
    private static final byte[] MAGIC = {'L', 'S', 'R', 'E', 'Q', 'L', 'O', 'G'};
    private static final Outcome[] OUTCOMES = Outcome.values();

    private RequestLog() {
    }

    /** Creates (or truncates) a log at file; {@code runStartNanos} goes into the header. Written by the caller. */
    public static Writer create(Path file, long runStartNanos) throws IOException {
        return create(file, runStartNanos, Runnable::run);
    }

    /**
     * Creates (or truncates) a log at file, whose full buffers are written to it by {@code writer} (tasks
     * that must run one at a time, in order: one thread, or the caller's own with {@code Runnable::run}).
     */
    public static Writer create(Path file, long runStartNanos, Executor writer) throws IOException {
        return new Writer(file, FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), runStartNanos, writer);
    }

    /** A writer that keeps nothing: records are encoded as for a file, then dropped (a warm-up's). */
    public static Writer discarding(long runStartNanos) {
        return new Writer(null, null, runStartNanos, Runnable::run);
    }

    /** Opens a log for reading; close the reader when done. */
    public static Reader read(Path file) throws IOException {
        return new Reader(file);
    }

    /**
     * Appends records; single-threaded. A full buffer is handed to the writer, and a recycled one (or, while
     * the writer is behind, a new one) takes its place; {@link #close()} waits until the writer is done.
     * A write that fails (a full disk) fails the next append with a {@link FileSystemException} naming the
     * file ({@code results/x/requests.bin: No space left on device}), and {@link #close()} then deletes the
     * file, so no log that ends early is left under its name.
     */
    public static final class Writer implements Closeable {
        private static final int BUFFER_BYTES = 64 * 1024;
        private final Path file;
        private final FileChannel channel;
        private final Executor writer;
        private final ArrayBlockingQueue<ByteBuffer> spares = new ArrayBlockingQueue<>(4);
        private ByteBuffer buffer = newBuffer();
        private volatile IOException failure;
        private long count;
        private boolean closed;

        private Writer(Path file, FileChannel channel, long runStartNanos, Executor writer) {
            this.file = file;
            this.channel = channel;
            this.writer = writer;
            buffer.put(MAGIC).putInt(VERSION).putInt(RECORD_BYTES).putLong(runStartNanos).putLong(0);
        }

        private static ByteBuffer newBuffer() {
            return ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.BIG_ENDIAN);
        }

        /** Appends one record of an answer that named no replica (no allocation). */
        public void append(long intendedNanos, long sentNanos, long endNanos, int connection, int step,
                           int status, Outcome outcome) {
            append(intendedNanos, sentNanos, endNanos, connection, step, status, outcome, 0);
        }

        /** Appends one record (no allocation); {@code servedBy} as in {@link RequestRecord#servedBy()}. */
        public void append(long intendedNanos, long sentNanos, long endNanos, int connection, int step,
                           int status, Outcome outcome, int servedBy) {
            if (buffer.remaining() < RECORD_BYTES) {
                flushBuffer();
            }
            buffer.putLong(intendedNanos).putLong(sentNanos).putLong(endNanos)
                    .putInt(connection).putInt(step).putInt(status).put((byte) outcome.ordinal()).putInt(servedBy);
            count++;
        }

        public void append(RequestRecord r) {
            append(r.intendedNanos(), r.sentNanos(), r.endNanos(), r.connection(), r.step(), r.status(), r.outcome(),
                    r.servedBy());
        }

        /** Records appended so far. */
        public long count() {
            return count;
        }

        private void flushBuffer() {
            if (failure != null) {
                throw new UncheckedIOException("cannot write the request log", failure);
            }
            if (channel == null) {
                buffer.clear();
                return;
            }
            ByteBuffer full = buffer;
            ByteBuffer spare = spares.poll();
            buffer = spare != null ? spare : newBuffer();
            full.flip();
            writer.execute(() -> write(full));
        }

        /** On the writer: a full buffer to the file, then back to the spares. */
        private void write(ByteBuffer full) {
            try {
                while (failure == null && full.hasRemaining()) {
                    channel.write(full);
                }
            } catch (IOException e) {
                failure = named(file, e);
            }
            full.clear();
            spares.offer(full);
        }

        /** Writes what is left, closes the file and returns once the writer has done all of it. */
        @Override
        public void close() throws IOException {
            if (closed || channel == null) {
                return;
            }
            closed = true;
            ByteBuffer last = buffer;
            last.flip();
            CountDownLatch done = new CountDownLatch(1);
            writer.execute(() -> {
                write(last);
                try {
                    channel.close();
                } catch (IOException e) {
                    if (failure == null) {
                        failure = named(file, e);
                    }
                } finally {
                    done.countDown();
                }
            });
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the request log was written");
            }
            if (failure != null) {
                Files.deleteIfExists(file);
                throw failure;
            }
        }

        /** Deletes the file (after {@link #close()}: a run whose files failed); nothing for a discarding log. */
        void deleteFile() throws IOException {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** {@code e} as an error naming {@code file}: {@code results/x/requests.bin: No space left on device}. */
    static IOException named(Path file, IOException e) {
        if (e instanceof FileSystemException) {
            return e;
        }
        FileSystemException named = new FileSystemException(file.toString(), null,
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        named.initCause(e);
        return named;
    }

    /**
     * Iterates the whole records of a log, in file order. A log whose writer was killed (a second Ctrl-C)
     * may end early: it has no {@code results.json} beside it, and may end in part of a record, which is
     * not read ({@link #endsEarly()}); one too short for its header is refused with a message that says so.
     */
    public static final class Reader implements Iterator<RequestRecord>, Closeable {
        private final FileChannel channel;
        private final boolean endsEarly;
        private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        private final long runStartNanos;
        private final int recordBytes;
        private final long recordCount;
        private long read;

        private Reader(Path file) throws IOException {
            channel = FileChannel.open(file, StandardOpenOption.READ);
            try {
                if (channel.size() < HEADER_BYTES) {
                    throw new EOFException(file + ": not a whole request log (" + channel.size() + " bytes, its "
                            + "header alone is " + HEADER_BYTES + "): the run that wrote it did not finish");
                }
                ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
                readFully(header);
                header.flip();
                byte[] magic = new byte[MAGIC.length];
                header.get(magic);
                if (!java.util.Arrays.equals(magic, MAGIC)) {
                    throw new IOException(file + ": not a loadsmith request log (bad magic)");
                }
                int version = header.getInt();
                recordBytes = header.getInt();
                if (!(version == VERSION && recordBytes == RECORD_BYTES || version == 1 && recordBytes == V1_RECORD_BYTES)) {
                    throw new IOException(file + ": unsupported request log version " + version
                            + " with records of " + recordBytes + " bytes");
                }
                runStartNanos = header.getLong();
                recordCount = (channel.size() - HEADER_BYTES) / recordBytes;
                endsEarly = (channel.size() - HEADER_BYTES) % recordBytes != 0;
                buffer.flip();
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }

        private void readFully(ByteBuffer target) throws IOException {
            while (target.hasRemaining()) {
                if (channel.read(target) < 0) {
                    throw new EOFException("request log ends early");
                }
            }
        }

        /** The run's start, in nanoseconds on the tester's clock, from the header. */
        public long runStartNanos() {
            return runStartNanos;
        }

        /** True when the file ends in part of a record: its writer was stopped while writing it. */
        public boolean endsEarly() {
            return endsEarly;
        }

        /** The size of its records: {@value #RECORD_BYTES}, or {@value #V1_RECORD_BYTES} in a version 1 log. */
        public int recordBytes() {
            return recordBytes;
        }

        /** How many whole records the file holds. */
        public long recordCount() {
            return recordCount;
        }

        @Override
        public boolean hasNext() {
            return read < recordCount;
        }

        @Override
        public RequestRecord next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            if (buffer.remaining() < recordBytes) {
                buffer.compact();
                try {
                    while (buffer.position() < recordBytes) {
                        if (channel.read(buffer) < 0) {
                            throw new EOFException("request log ends early");
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                buffer.flip();
            }
            read++;
            return new RequestRecord(buffer.getLong(), buffer.getLong(), buffer.getLong(),
                    buffer.getInt(), buffer.getInt(), buffer.getInt(), OUTCOMES[buffer.get()],
                    recordBytes == RECORD_BYTES ? buffer.getInt() : 0);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
