package io.loadsmith.tester.scenario;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a journey's CSV data feeder: a header line of column names, then one row per line
 * (RFC 4180 quoting, read with Jackson's CSV module). Rows are held in memory.
 */
public final class DataTable {

    private final Path file;
    private final List<String> columns;
    private final Map<String, Integer> index;
    private final List<String[]> rows;

    private DataTable(Path file, List<String> columns, List<String[]> rows) {
        this.file = file;
        this.columns = List.copyOf(columns);
        this.rows = Collections.unmodifiableList(rows);
        this.index = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            index.put(columns.get(i), i);
        }
    }

    /**
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when it has no header, no rows, or a row of the wrong width
     */
    public static DataTable read(Path file) throws IOException {
        CsvMapper mapper = new CsvMapper();
        mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
        List<String> columns = null;
        List<String[]> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = mapper.readerFor(String[].class).readValues(Files.newBufferedReader(file))) {
            int line = 0;
            while (it.hasNext()) {
                String[] row = it.next();
                line++;
                if (row.length == 0 || (row.length == 1 && row[0].isEmpty())) {
                    continue;
                }
                if (columns == null) {
                    columns = new ArrayList<>();
                    for (String name : row) {
                        columns.add(name.trim());
                    }
                    continue;
                }
                if (row.length != columns.size()) {
                    throw new IllegalArgumentException("row " + line + " has " + row.length + " fields, the header has "
                            + columns.size());
                }
                rows.add(row);
            }
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException("is not valid CSV: " + e.getMessage());
        }
        if (columns == null) {
            throw new IllegalArgumentException("is empty (expected a header line of column names)");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("has a header but no rows");
        }
        return new DataTable(file, columns, rows);
    }

    public Path file() {
        return file;
    }

    public List<String> columns() {
        return columns;
    }

    public int size() {
        return rows.size();
    }

    public boolean hasColumn(String name) {
        return index.containsKey(name);
    }

    /** The index of a column (0-based), or -1 when there is none of that name. */
    public int columnIndex(String name) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
    }

    /** Row {@code row}'s values by column index: the table's own array, not to be changed. */
    public String[] row(int row) {
        return rows.get(row);
    }

    /** The value of a column in row {@code row} (0-based). */
    public String value(int row, String column) {
        return rows.get(row)[index.get(column)];
    }
}
