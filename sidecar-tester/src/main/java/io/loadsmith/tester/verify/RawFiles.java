package io.loadsmith.tester.verify;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/** Reads a run's raw files, refusing (with a {@link VerifyException} naming the file) what is missing or damaged. */
final class RawFiles {

    private RawFiles() {
    }

    /**
     * Feeds every record of the request log {@code file} to {@code sink}, in file order, and returns the run's
     * start from its header. A file that is not a whole header plus whole records is refused.
     *
     * @param why    what names the file, for the message when it is missing
     * @param header given the run's start before the first record
     */
    static long readRequests(Path file, String why, Consumer<RequestRecord> sink, LongConsumer header) {
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new VerifyException(file + ": no such file (" + why + ")");
        } catch (IOException e) {
            throw new VerifyException(file + ": cannot be read: " + e, e);
        }
        if (size < RequestLog.HEADER_BYTES) {
            throw new VerifyException(file + ": truncated: " + size + " bytes, shorter than the "
                    + RequestLog.HEADER_BYTES + "-byte header");
        }
        long body = size - RequestLog.HEADER_BYTES;
        long record = 0;
        try (RequestLog.Reader records = RequestLog.read(file)) {
            int recordBytes = records.recordBytes();
            if (body % recordBytes != 0) {
                throw new VerifyException(file + ": truncated: record " + (body / recordBytes + 1)
                        + " holds " + body % recordBytes + " of its " + recordBytes + " bytes");
            }
            header.accept(records.runStartNanos());
            while (records.hasNext()) {
                record++;
                sink.accept(records.next());
            }
            return records.runStartNanos();
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            throw new VerifyException(message.startsWith(file.toString()) ? message : file + ": " + message, e);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new VerifyException(file + ": record " + record + " has an unknown outcome", e);
        }
    }

    /**
     * The whole-run total of each tag of the interval log {@code file} (every interval of the tag added up),
     * in tag order of first appearance.
     */
    static Map<String, Histogram> hlogTotals(Path file, String why) {
        Map<String, Histogram> totals = new LinkedHashMap<>();
        HistogramLogReader reader;
        try {
            reader = new HistogramLogReader(file.toFile());
        } catch (FileNotFoundException e) {
            throw new VerifyException(file + ": no such file (" + why + ")");
        }
        try {
            int interval = 0;
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                interval++;
                if (!(h instanceof Histogram histogram)) {
                    throw new VerifyException(file + ": interval " + interval + " is not an integer histogram");
                }
                totals.computeIfAbsent(String.valueOf(histogram.getTag()), t -> RequestTally.histogram()).add(histogram);
            }
        } catch (VerifyException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new VerifyException(file + ": not a readable HdrHistogram interval log: " + e, e);
        } finally {
            reader.close();
        }
        return totals;
    }
}
