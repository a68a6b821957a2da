package io.numacube.cli.cube;

import io.numacube.cli.output.Units;
import io.numacube.engine.Cube;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvInference;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvSchemas;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.ingest.parquet.ParquetStagingLoader;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fills a cube from the command line's data sources, with a progress bar on stderr for each step. Each CSV table is
 * staged completely before it is handed to {@link Cube#loadTable}, so a bad row leaves the cube as it was. Stateless.
 */
public final class CubeLoader {

    private CubeLoader() {}

    /**
     * How one table load went. Immutable.
     *
     * @param table        the table name
     * @param file         the CSV file, or null for generated data
     * @param rows         rows loaded
     * @param bytesRead    CSV bytes read (0 for generated data)
     * @param readSeconds  reading and staging (or generating) time
     * @param placeSeconds placing the staged rows into partitions (0 for generated data, which is placed as it is made)
     * @param inferredSchema the schema inferred from the file, or null when it was declared (or generated)
     * @param typeNotes    why inferred columns were widened or fell back to text (empty when declared)
     * @param forcedColumns the columns whose type {@code --types} gave, in the order given (empty when none)
     */
    public record TableLoad(
            String table,
            Path file,
            long rows,
            long bytesRead,
            double readSeconds,
            double placeSeconds,
            TableSchema inferredSchema,
            List<CsvInference.Note> typeNotes,
            List<String> forcedColumns) {

        public TableLoad {
            typeNotes = List.copyOf(typeNotes);
            forcedColumns = List.copyOf(forcedColumns);
        }

        /** How the schema was chosen, for the schema line: {@code inferred}, or {@code inferred; zip by --types}. */
        public String schemaSource() {
            return forcedColumns.isEmpty()
                    ? "inferred"
                    : "inferred; " + String.join(", ", forcedColumns) + " by --types";
        }

        /**
         * What to add to an error message that names one of this table's inferred columns (as {@code column=name} or
         * {@code name is ...}, the whole name): its inferred type, the value that made it so (file:line) and the
         * option that declares another type, or, for an integer column the cube stores plain, how to store it coded;
         * null when the schema was declared or the message names none of its columns.
         *
         * @param stored the table's schema as the cube holds it (an inferred BIGINT of few values is stored INT)
         */
        public String typeHint(String message, TableSchema stored) {
            if (inferredSchema == null) {
                return null;
            }
            String m = message.toLowerCase(java.util.Locale.ROOT);
            for (ColumnSpec c : inferredSchema.columns()) {
                String name = java.util.regex.Pattern.quote(c.name().toLowerCase(java.util.Locale.ROOT));
                if (!m.matches("(?s).*column=" + name + "([^a-z0-9_].*)?")
                        && !m.matches("(?s).*(^|[^a-z0-9_])" + name + " is .*")) {
                    continue;
                }
                String other = "; to read it as another type: --types " + table + "." + c.name() + "=TYPE ("
                        + CsvSchemas.SQL_TYPES + ")";
                if (forcedColumns.stream().anyMatch(c.name()::equalsIgnoreCase)) {
                    return "column " + c.name() + " of table " + table + " is " + CsvStagingLoader.sqlName(c.type())
                            + " by --types" + other;
                }
                int index = stored.indexOf(c.name());
                if (c.type() == ColumnType.LONG
                        && index >= 0
                        && stored.column(index).type() == ColumnType.LONG) {
                    return integerDimensionHint(c.name());
                }
                CsvInference.Note note = typeNotes.stream()
                        .filter(n -> n.column().equals(c.name()))
                        .findFirst()
                        .orElse(null);
                return "column " + c.name() + " of table " + table + " was inferred as " + c.type()
                        + (note != null
                                ? " (value \"" + note.value() + "\" at " + note.source() + ":" + note.line() + " "
                                        + note.reason() + ")"
                                : "")
                        + other;
            }
            return null;
        }

        /** Rows per second over the whole load. */
        public double rowsPerSecond() {
            double s = readSeconds + placeSeconds;
            return s > 0 ? rows / s : 0;
        }

        /** The columns inferred as LONG (integers); empty when the schema was declared. */
        public List<String> inferredIntegerColumns() {
            if (inferredSchema == null) {
                return List.of();
            }
            return inferredSchema.columns().stream()
                    .filter(c -> c.type() == ColumnType.LONG)
                    .map(ColumnSpec::name)
                    .toList();
        }

        /** How to store an inferred integer column coded, as a dimension: the --schema option that declares it INT. */
        public String integerDimensionHint(String column) {
            List<ColumnSpec> example = inferredSchema.columns().stream()
                    .map(c -> c.name().equals(column) ? new ColumnSpec(c.name(), ColumnType.INT) : c)
                    .toList();
            return "integer column " + column + " of table " + table
                    + " was inferred as BIGINT and is stored plain (more"
                    + " than 65,536 distinct values); to store it coded, as a dimension, declare it INT: --schema \""
                    + table + "=" + CsvSchemas.sqlDeclaration(new TableSchema(table, example)) + "\"";
        }
    }

    /**
     * What {@code query} and {@code serve} do before their work: generates trades when {@code generate} is given,
     * then loads every {@code --table}, printing one line per table (rows, source, seconds), the inferred schema and
     * its type notes to {@code err}.
     *
     * @param generate rows of trades to generate first, or null for none
     * @return the file loads, in order (the generation is not among them)
     */
    public static List<TableLoad> generateAndLoad(
            Cube cube, Long generate, long seed, DataSources sources, Long maxMemory, PrintWriter err) {
        if (generate != null) {
            TableLoad g = generate(cube, generate, seed, maxMemory, err);
            err.println(String.format(
                    java.util.Locale.ROOT,
                    "-- generated %,d trades (seed %d) in %.2f s",
                    g.rows(),
                    seed,
                    g.readSeconds()));
        }
        List<TableLoad> loads = loadCsv(cube, sources, maxMemory, err);
        for (TableLoad l : loads) {
            err.println(String.format(
                    java.util.Locale.ROOT,
                    "-- loaded %s: %,d rows from %s in %.2f s",
                    l.table(),
                    l.rows(),
                    l.file(),
                    l.readSeconds() + l.placeSeconds()));
            if (l.inferredSchema() != null) {
                err.println("-- " + l.table() + " columns (" + l.schemaSource() + "): "
                        + CsvSchemas.sqlDeclaration(l.inferredSchema()));
            }
            l.typeNotes().forEach(n -> err.println("-- note: " + n.text()));
        }
        err.flush();
        return loads;
    }

    /**
     * Loads every {@code --table} in order; each is first checked against the memory the process may use
     * ({@link MemoryBudget}).
     *
     * @param maxMemory {@code --max-memory}, or null
     */
    public static List<TableLoad> loadCsv(Cube cube, DataSources sources, Long maxMemory, PrintWriter err) {
        CsvOptions options = sources.csvOptions();
        CsvStagingLoader loader = new CsvStagingLoader(options, cube.workers());
        ParquetStagingLoader parquet = new ParquetStagingLoader(cube.workers());
        List<TableLoad> loads = new ArrayList<>();
        Map<String, Path> tables = sources.tables();
        String partitionBy = cube.options().partitioning().dimension();
        boolean partitionColumnSeen = false;
        int index = 0;
        for (Map.Entry<String, Path> t : tables.entrySet()) {
            index++;
            String name = t.getKey();
            Path file = t.getValue();
            TableFiles files = TableFiles.of(file);
            checkMemory(cube, name, file, files, options.delimiter(), maxMemory);
            long start = System.nanoTime();
            StagedTable staged =
                    stage(loader, parquet, name, file, files, sources.declaredSchema(name), sources.types(name), err);
            partitionColumnSeen |=
                    partitionBy == null || staged.staging().schema().indexOf(partitionBy) >= 0;
            if (index == tables.size() && !partitionColumnSeen) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--partition-by names a column "
                                + "that no table has: column=" + partitionBy + " tables=" + tables.keySet()
                                + " — use a "
                                + "dimension column of the fact table ("
                                + dimensions(staged.staging().schema()) + ")");
            }
            long stagedAt = System.nanoTime();
            cube.loadTable(staged.staging());
            long placed = System.nanoTime();
            TableSchema declared = sources.declaredSchema(name);
            loads.add(new TableLoad(
                    name,
                    file,
                    staged.rows(),
                    staged.bytes(),
                    (stagedAt - start) / 1e9,
                    (placed - stagedAt) / 1e9,
                    declared == null ? staged.staging().schema() : null,
                    staged.notes(),
                    List.copyOf(sources.types(name).keySet())));
        }
        return loads;
    }

    /** One table read and staged, from CSV or Parquet: its rows, the bytes read and the CSV inference's notes. */
    private record StagedTable(TableStaging staging, long rows, long bytes, List<CsvInference.Note> notes) {}

    /** {@link #stage(CsvStagingLoader, ParquetStagingLoader, String, TableFiles, TableSchema, Map, ProgressBar)} with a progress bar. */
    private static StagedTable stage(
            CsvStagingLoader csv,
            ParquetStagingLoader parquet,
            String name,
            Path file,
            TableFiles files,
            TableSchema declared,
            Map<String, ColumnSpec> types,
            PrintWriter err) {
        if (files.parquet() && !types.isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--types applies to CSV tables: table " + name + " is Parquet (" + file + "), whose file carries"
                            + " its column types — leave --types " + name + "."
                            + types.keySet().iterator().next()
                            + " out, or cast the column where the file is written");
        }
        ProgressBar bar = ProgressBar.on(err, "loading " + file.getFileName());
        StagedTable staged;
        try {
            staged = stage(csv, parquet, name, files, declared, types, bar);
        } catch (RuntimeException e) {
            bar.abandon();
            throw e;
        } catch (OutOfMemoryError e) {
            bar.abandon();
            throw new NumacubeException(
                    NumacubeException.Kind.OUT_OF_MEMORY,
                    "the JVM heap is too small to stage the file before it is placed: table=" + name + " file=" + file
                            + " maxHeap=" + Units.bytes(Runtime.getRuntime().maxMemory())
                            + " — give the JVM more heap, e.g. NUMACUBE_JAVA_OPTS=-Xmx16g",
                    e);
        }
        bar.close();
        return staged;
    }

    /** Stages a table's files: Parquet when their first bytes say so (whatever their names), CSV otherwise. */
    private static StagedTable stage(
            CsvStagingLoader csv,
            ParquetStagingLoader parquet,
            String name,
            TableFiles files,
            TableSchema declared,
            Map<String, ColumnSpec> types,
            ProgressBar bar) {
        if (files.parquet()) {
            ParquetStagingLoader.Staged p = parquet.stageAll(files.files(), name, declared, bar);
            return new StagedTable(p.staging(), p.rows(), p.bytes(), List.of());
        }
        CsvStagingLoader.Staged c = csv.stageAll(files.files(), name, declared, types, bar);
        return new StagedTable(
                c.staging(),
                c.summary().rows(),
                c.summary().bytes(),
                c.inference() == null ? List.of() : c.inference().notes());
    }

    private static String dimensions(TableSchema schema) {
        return String.join(
                ", ",
                schema.columns().stream()
                        .filter(ColumnSpec::isDimension)
                        .map(ColumnSpec::name)
                        .toList());
    }

    /**
     * Refuses a file whose rows cannot fit: a Parquet file's rows and columns from its footer, a CSV file's estimated
     * from its size and first lines.
     */
    private static void checkMemory(
            Cube cube, String table, Path path, TableFiles files, char delimiter, Long maxMemory) {
        long rows = 0;
        int columns = 0;
        for (Path file : files.files()) {
            if (files.parquet()) {
                ParquetStagingLoader.Shape shape = ParquetStagingLoader.shape(file);
                rows += shape.rows();
                columns = Math.max(columns, shape.columns());
            } else {
                var estimate = CsvSizeEstimate.of(file, delimiter);
                if (estimate.isPresent()) {
                    rows += estimate.get().rows();
                    columns = Math.max(columns, estimate.get().columns());
                }
            }
        }
        if (rows == 0) {
            return;
        }
        MemoryBudget.detect(maxMemory)
                .check(
                        "table " + table + " (about " + MemoryBudget.rows(rows) + " rows of " + columns + " columns in "
                                + path + ")",
                        rows * columns * MemoryBudget.MIN_CODE_BYTES,
                        rows * columns * MemoryBudget.MIN_STAGED_BYTES,
                        cube.dataNodes(),
                        "load a smaller file");
    }

    /**
     * Generates {@code rows} trades (and the fx table) straight into the cube, after checking that they fit
     * ({@link MemoryBudget}).
     *
     * @param maxMemory {@code --max-memory}, or null
     */
    public static TableLoad generate(Cube cube, long rows, long seed, Long maxMemory, PrintWriter err) {
        long perRow = 0;
        for (ColumnSpec c : io.numacube.engine.gen.TradesGenerator.TRADES.columns()) {
            perRow += c.isDimension() ? MemoryBudget.MIN_CODE_BYTES : MemoryBudget.MEASURE_BYTES;
        }
        MemoryBudget.detect(maxMemory)
                .check(
                        MemoryBudget.rows(rows) + " generated trades (" + perRow + " bytes a row)",
                        Math.multiplyHigh(rows, perRow) != 0 ? Long.MAX_VALUE : rows * perRow,
                        0,
                        cube.dataNodes(),
                        "generate fewer rows");
        ProgressBar bar = ProgressBar.on(err, "generating trades");
        long start = System.nanoTime();
        try {
            cube.generateTrades(rows, seed, bar);
        } catch (RuntimeException e) {
            bar.abandon();
            throw e;
        }
        bar.close();
        return new TableLoad("trades", null, rows, 0, (System.nanoTime() - start) / 1e9, 0, null, List.of(), List.of());
    }
}
