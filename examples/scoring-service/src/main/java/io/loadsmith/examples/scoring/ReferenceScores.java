package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code customers.csv}: the score the service must answer for every customer, as text, so that a tester's data
 * feeder can check each answer ({@code customer_id,expected_score}, one customer a line, in id order).
 */
public final class ReferenceScores {

    public static final String FILE_NAME = "customers.csv";
    public static final String HEADER = "customer_id,expected_score";

    private ReferenceScores() {
    }

    /** The file's text for customers {@code 1..probabilities.length}. */
    public static String csv(double[] probabilities) {
        StringBuilder csv = new StringBuilder(probabilities.length * 16).append(HEADER).append('\n');
        for (int i = 0; i < probabilities.length; i++) {
            csv.append(i + 1).append(',').append(BuyAgainModel.rounded(probabilities[i]).toPlainString()).append('\n');
        }
        return csv.toString();
    }

    /** Reads a file written by {@link #csv}: expected score text by customer id, in file order. */
    public static Map<Long, String> read(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
                throw new IllegalArgumentException(file + ": first line must be " + HEADER);
            }
            Map<Long, String> scores = new LinkedHashMap<>();
            for (String line : lines.subList(1, lines.size())) {
                int comma = line.indexOf(',');
                scores.put(Long.parseLong(line.substring(0, comma)), line.substring(comma + 1));
            }
            return scores;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
