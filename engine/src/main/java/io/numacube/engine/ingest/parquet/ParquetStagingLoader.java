package io.numacube.engine.ingest.parquet;

import dev.hardwood.InputFile;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.schema.ColumnSchema;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads a flat Parquet file into a new {@link TableStaging}, ready for {@code Cube.loadTable}. The schema is the
 * file's ({@link ParquetColumn}), or a declared one that names the same columns and changes a LONG column to INT (a
 * groupable integer) or DOUBLE. NULLs of optional columns are staged as NULLs.
 *
 * <p>Each row group is decoded whole ({@link RowGroupDecoder}: primitive arrays, dimensions coded per row group) into a
 * {@link io.numacube.engine.ingest.StagingBlock}, and the blocks are appended to the staging in file order, so the
 * staged rows, their order and the dictionaries' first-seen order are the same however the row groups were decoded:
 * on the calling thread, or in parallel on a {@link WorkerPool} ({@link ParallelRowGroups}).
 *
 * <p>Everything is staged before any cube sees a row, so a bad value (a NaN, an unsigned value beyond BIGINT) leaves
 * no trace; its error names the file, the column, the row and the row group, and is the first bad value in file
 * order however the row groups were decoded. Immutable; thread-safe, each call stages on the calling thread.
 */
public final class ParquetStagingLoader {

    /** Decode the row groups; null to decode them on the calling thread. */
    private final WorkerPool workers;

    private static final byte[] MAGIC = {'P', 'A', 'R', '1'};

    /** hardwood logs its SIMD choice at INFO through java.util.logging; a command line keeps stderr for its own. */
    private static final Logger HARDWOOD_LOG = Logger.getLogger("dev.hardwood");

    static {
        HARDWOOD_LOG.setLevel(Level.WARNING);
    }

    /**
     * A staged table and how its read went. The staging is owned by the caller.
     *
     * @param fileSchema the schema the file's types give (before a declared schema changed any)
     * @param rows       rows staged
     * @param bytes      the file's size
     * @param nanos      wall time of the read
     */
    public record Staged(TableStaging staging, TableSchema fileSchema, long rows, long bytes, long nanos) {}

    /** A file's size before reading it, for the memory check: rows and columns from its footer. */
    public record Shape(long rows, int columns) {}

    /** A loader that decodes the row groups on the calling thread, one after another. */
    public ParquetStagingLoader() {
        this(null);
    }

    /**
     * A loader that decodes the row groups of a file in parallel on {@code workers} (pinned per node where the pool
     * pins) and stages them in file order on the calling thread, which must not be one of the pool's workers.
     *
     * @param workers the pool, or null to decode on the calling thread; not closed here
     */
    public ParquetStagingLoader(WorkerPool workers) {
        this.workers = workers;
    }

    /** Whether {@code file} is a regular file that starts with Parquet's magic bytes {@code PAR1}. */
    public static boolean isParquet(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(MAGIC.length), MAGIC);
        } catch (IOException e) {
            return false;
        }
    }

    /** The rows and columns the footer of {@code file} declares. */
    public static Shape shape(Path file) {
        try (ParquetFileReader r = open(file)) {
            return new Shape(r.getFileMetaData().numRows(), r.getFileSchema().getColumnCount());
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * Stages {@code files}, in order, as one table: every file must have the first one's columns (names, order and
     * types, after the declared schema, which applies to all), else an error names the file that differs. Nothing is staged when
     * one fails.
     */
    public Staged stageAll(List<Path> files, String tableName, TableSchema declared, ProgressListener progress) {
        long start = System.nanoTime();
        TableStaging staging = null;
        TableSchema first = null;
        long bytes = 0;
        for (Path file : files) {
            Staged s = stage(file, tableName, declared, progress, staging);
            if (first == null) {
                first = s.fileSchema();
                staging = s.staging();
            }
            bytes += s.bytes();
        }
        return new Staged(staging, first, staging.rows(), bytes, System.nanoTime() - start);
    }

    /**
     * Stages {@code file} as table {@code tableName}.
     *
     * @param declared the schema, or null for the file's; its name is replaced by {@code tableName}
     * @throws NumacubeException INVALID_INPUT naming the file (and column, row, row group) for anything it cannot load
     */
    public Staged stage(Path file, String tableName, TableSchema declared, ProgressListener progress) {
        return stage(file, tableName, declared, progress, null);
    }

    /** As {@link #stage(Path, String, TableSchema, ProgressListener)}, appending to {@code into} when not null. */
    private Staged stage(
            Path file, String tableName, TableSchema declared, ProgressListener progress, TableStaging into) {
        long start = System.nanoTime();
        try (ParquetFileReader r = open(file)) {
            List<ParquetColumn> columns = new ArrayList<>();
            for (ColumnSchema c : r.getFileSchema().getColumns()) {
                columns.add(ParquetColumn.of(file.toString(), c));
            }
            ParquetFooterChecks.check(file, r.getFileMetaData(), columns);
            TableSchema fileSchema = new TableSchema(
                    tableName, columns.stream().map(ParquetColumn::spec).toList());
            TableSchema schema = declared == null ? fileSchema : reconcile(file, fileSchema, declared, tableName);
            if (into != null && !into.schema().columns().equals(schema.columns())) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        file + ": its columns (" + columns(schema) + ") differ from the table's ("
                                + columns(into.schema()) + "); the files of one table must have the same columns");
            }
            ParquetLayout layout = ParquetLayout.of(
                    file.toString(), columns, r.getFileMetaData().rowGroups());
            TableStaging staging = into != null ? into : new TableStaging(schema);
            staging.reserve((long) staging.rows() + layout.totalRows());
            if (workers == null || layout.groups() < 2) {
                readOnThisThread(r, layout, staging, progress);
            } else {
                new ParallelRowGroups(file, layout, staging.schema(), workers).stageInto(staging, progress);
            }
            staging.settle(workers);
            return new Staged(staging, fileSchema, staging.rows(), Files.size(file), System.nanoTime() - start);
        } catch (IOException | RuntimeException e) {
            if (e instanceof NumacubeException n) {
                throw n;
            }
            throw unreadable(file, e);
        }
    }

    /** Decodes and stages the row groups one after another on the calling thread. */
    private static void readOnThisThread(
            ParquetFileReader r, ParquetLayout layout, TableStaging staging, ProgressListener progress) {
        int rowsBefore = staging.rows();
        RowGroupDecoder decoder = new RowGroupDecoder(layout, staging.schema());
        for (int g = 0; g < layout.groups(); g++) {
            staging.append(decoder.decode(r, g));
            progress.progress(staging.rows() - rowsBefore, layout.totalRows());
        }
    }

    /**
     * The declared schema, checked against the file's: the same columns in any order (by name, case-insensitive),
     * each of the file's type, or LONG declared INT or DOUBLE.
     */
    private static TableSchema reconcile(Path file, TableSchema fromFile, TableSchema declared, String tableName) {
        if (declared.size() != fromFile.size()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    file + ": the declared schema has " + declared.size() + " columns, the file " + fromFile.size()
                            + " (" + columns(fromFile) + ")");
        }
        List<ColumnSpec> cols = new ArrayList<>();
        for (ColumnSpec c : fromFile.columns()) {
            int i = declared.indexOf(c.name());
            if (i < 0) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        file + ": the declared schema has no column " + c.name() + " (the file has " + columns(fromFile)
                                + ")");
            }
            ColumnType want = declared.column(i).type();
            boolean ok = want == c.type()
                    || (c.type() == ColumnType.LONG && (want == ColumnType.INT || want == ColumnType.DOUBLE));
            if (c.isDecimal() || declared.column(i).isDecimal()) {
                // a DECIMAL's longs are its values times 10^scale: read only as that very DECIMAL
                ok = (want == ColumnType.LONG || want == ColumnType.INT)
                        && c.precision() == declared.column(i).precision()
                        && c.scale() == declared.column(i).scale();
            }
            if (!ok) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        file + ": column " + c.name() + " is " + sqlName(c) + " in the file and cannot be read as "
                                + sqlName(declared.column(i))
                                + " (an integer column may be declared INT, to group by it, or DOUBLE)");
            }
            cols.add(new ColumnSpec(c.name(), want, c.precision(), c.scale()));
        }
        return new TableSchema(tableName, cols);
    }

    private static String sqlName(ColumnSpec c) {
        return c.isDecimal() ? c.typeName() : c.type().name();
    }

    /** The columns as a schema declaration reads: {@code k LONG, v DOUBLE}. */
    private static String columns(TableSchema schema) {
        return String.join(
                ", ",
                schema.columns().stream().map(c -> c.name() + " " + sqlName(c)).toList());
    }

    private static ParquetFileReader open(Path file) {
        try {
            return ParquetFileReader.open(InputFile.of(file));
        } catch (IOException | RuntimeException e) {
            throw unreadable(file, e);
        }
    }

    /** A file hardwood cannot read: not Parquet after all, truncated, or corrupt. */
    static NumacubeException unreadable(Path file, Exception e) {
        String why =
                e instanceof IOException io ? IoReason.of(io) : e.getClass().getSimpleName() + ": " + e.getMessage();
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                file + ": not a readable Parquet file (truncated or corrupt?): " + why,
                e);
    }
}
