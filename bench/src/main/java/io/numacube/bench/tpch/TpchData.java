package io.numacube.bench.tpch;

import io.numacube.bench.Progress;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.engine.ingest.csv.CsvWriter;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The TPC-H tables at one scale factor as files, generated once and cached: {@code <root>/sf<SF>/<table>.csv} (a
 * header, comma-separated, quoted as {@link CsvWriter} quotes) written from Trino's generator ({@code io.trino.tpch},
 * the Java port of dbgen: the same rows as dbgen), and {@code <table>.parquet} copies written by DuckDB from the CSV
 * files read with the {@link TpchSchema} types (DECIMAL(15,2) stored as INT64, DATE as INT32 dates).
 *
 * <p>Invariant: a directory holds the files only when its {@value #MANIFEST} exists; it is written last, after the
 * files were generated into a temporary directory that was then renamed, so an interrupted generation leaves no
 * half-written cache that a later run would trust. Immutable; {@link #ensure} is not safe to run twice at once on one
 * root.
 */
public final class TpchData {

    /** The file that marks a complete cache directory and records each table's rows. */
    public static final String MANIFEST = "rows.properties";

    private final Path dir;
    private final double scaleFactor;
    private final Map<String, Long> rows;

    private TpchData(Path dir, double scaleFactor, Map<String, Long> rows) {
        this.dir = dir;
        this.scaleFactor = scaleFactor;
        this.rows = Map.copyOf(rows);
    }

    /** The scale factor as the directory names it: {@code 1}, {@code 0.01}, {@code 10}. */
    public static String label(double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }

    /**
     * The files of {@code scaleFactor} under {@code root}, generated first unless cached.
     *
     * @param threads DuckDB's threads for writing the Parquet copies
     */
    public static TpchData ensure(Path root, double scaleFactor, int threads, Progress progress) throws Exception {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("a TPC-H scale factor is positive: sf=" + scaleFactor);
        }
        Path dir = root.resolve("sf" + label(scaleFactor));
        if (Files.isRegularFile(dir.resolve(MANIFEST))) {
            progress.line("tpch: SF %s cached in %s", label(scaleFactor), dir);
            return new TpchData(dir, scaleFactor, readManifest(dir));
        }
        Files.createDirectories(root);
        Path tmp = Files.createTempDirectory(root, "sf" + label(scaleFactor) + ".tmp");
        try {
            Map<String, Long> rows = new LinkedHashMap<>();
            for (TpchSchema table : TpchSchema.TABLES) {
                long t0 = System.nanoTime();
                rows.put(table.name(), writeCsv(table, scaleFactor, tmp.resolve(table.name() + ".csv")));
                progress.line(
                        "tpch: generated %s: %,d rows in %.1f s",
                        table.name(), rows.get(table.name()), (System.nanoTime() - t0) / 1e9);
            }
            writeParquet(tmp, threads);
            progress.line("tpch: Parquet copies written by DuckDB");
            deleteTree(dir);
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            writeManifest(dir, rows);
            return new TpchData(dir, scaleFactor, rows);
        } finally {
            deleteTree(tmp);
        }
    }

    public Path dir() {
        return dir;
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    public Path csv(String table) {
        return dir.resolve(table + ".csv");
    }

    public Path parquet(String table) {
        return dir.resolve(table + ".parquet");
    }

    /** Rows of {@code table} as generated. */
    public long rows(String table) {
        Long n = rows.get(table);
        if (n == null) {
            throw new IllegalArgumentException(
                    "no TPC-H table of that name: table=" + table + " known=" + rows.keySet());
        }
        return n;
    }

    /** DuckDB's reader of a CSV file of {@code table}, with the TPC-H types and no detection. */
    public String duckDbReadCsv(TpchSchema table) {
        return "read_csv('" + csv(table.name()) + "', header = true, delim = ',', quote = '\"', auto_detect = false,"
                + " columns = " + table.duckDbColumns() + ")";
    }

    private static long writeCsv(TpchSchema schema, double scaleFactor, Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
                CsvWriter csv = new CsvWriter(out)) {
            csv.writeHeader(schema.numacube());
            return writeRows(TpchTable.getTable(schema.name()), schema, scaleFactor, csv);
        }
    }

    private static <E extends TpchEntity> long writeRows(
            TpchTable<E> table, TpchSchema schema, double scaleFactor, CsvWriter csv) throws IOException {
        List<TpchColumn<E>> columns =
                schema.columns().stream().map(c -> column(table, c.name())).toList();
        long rows = 0;
        for (E row : table.createGenerator(scaleFactor, 1, 1)) {
            for (int c = 0; c < columns.size(); c++) {
                TpchColumn<E> column = columns.get(c);
                switch (schema.columns().get(c).type()) {
                    case BIGINT -> csv.writeLong(column.getIdentifier(row));
                    case INTEGER -> csv.writeLong(column.getInteger(row));
                    // the generator's money is whole cents, its discounts and taxes whole percents: exact in cents
                    case DECIMAL -> csv.writeDecimal(BigDecimal.valueOf(Math.round(column.getDouble(row) * 100), 2));
                    case DATE -> csv.writeDate(column.getDate(row));
                    case VARCHAR -> csv.writeString(column.getString(row));
                }
            }
            csv.endRow();
            rows++;
        }
        return rows;
    }

    private static <E extends TpchEntity> TpchColumn<E> column(TpchTable<E> table, String name) {
        return table.getColumns().stream()
                .filter(c -> c.getColumnName().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "Trino's generator has no such column: table=" + table.getTableName() + " column=" + name));
    }

    private static void writeParquet(Path dir, int threads) throws Exception {
        TpchData csvOnly = new TpchData(dir, 0, Map.of());
        try (DuckDbPeer duck = DuckDbPeer.open(threads)) {
            for (TpchSchema table : TpchSchema.TABLES) {
                duck.execute("COPY (SELECT * FROM " + csvOnly.duckDbReadCsv(table) + ") TO '"
                        + csvOnly.parquet(table.name()) + "' (FORMAT parquet)");
            }
        }
    }

    private static void writeManifest(Path dir, Map<String, Long> rows) throws IOException {
        Properties p = new Properties();
        rows.forEach((table, n) -> p.setProperty(table, Long.toString(n)));
        Path tmp = dir.resolve(MANIFEST + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, "TPC-H rows per table; this file marks the directory complete");
        }
        Files.move(tmp, dir.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE);
    }

    private static Map<String, Long> readManifest(Path dir) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(dir.resolve(MANIFEST))) {
            p.load(in);
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (TpchSchema t : TpchSchema.TABLES) {
            rows.put(t.name(), Long.parseLong(p.getProperty(t.name(), "-1")));
        }
        return rows;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete a TPC-H cache file: file=" + p, e);
                }
            });
        }
    }
}
