package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Reads a CSV file into a new {@link TableStaging}, ready for {@code Cube.loadTable}: the schema is the declared one,
 * or inferred from the file when none is declared. Because everything is staged first, a bad row leaves no trace:
 * the exception propagates before any cube sees the rows. Stateless apart from its options and pool; thread-safe,
 * each call stages on the calling thread (a large regular file parsed in chunks on the pool, when it has one).
 */
public final class CsvStagingLoader {

    /** The fewest bytes of a chunk of a file read in parallel, and the most. */
    static final long MIN_CHUNK_BYTES = 4L << 20;

    static final long MAX_CHUNK_BYTES = 32L << 20;

    /** The fewest bytes of a chunk of CSV text in memory (a batch of rows) read in parallel. */
    static final long MIN_BATCH_CHUNK_BYTES = 128L << 10;

    private final CsvTableReader reader;
    private final WorkerPool workers;
    /** The bytes of a chunk, or 0 to choose by the file's size. */
    private final long chunkBytes;

    /** A loader that reads on the calling thread. */
    public CsvStagingLoader(CsvOptions options) {
        this(options, null);
    }

    /**
     * A loader that reads a regular, uncompressed file of at least two chunks ({@value #MIN_CHUNK_BYTES} bytes each)
     * in chunks parsed in parallel on {@code workers} and appended in file order on the calling thread, which must not
     * be one of the pool's workers; other inputs (pipes, compressed files, bytes) are read on the calling thread. The
     * staged rows, the dictionaries and the errors are the same either way.
     *
     * @param workers the pool, or null to read on the calling thread; not closed here
     */
    public CsvStagingLoader(CsvOptions options, WorkerPool workers) {
        this(options, workers, 0);
    }

    /** As {@link #CsvStagingLoader(CsvOptions, WorkerPool)}, with chunks of {@code chunkBytes} (0: by file size). */
    CsvStagingLoader(CsvOptions options, WorkerPool workers, long chunkBytes) {
        this.reader = new CsvTableReader(options);
        this.workers = workers;
        this.chunkBytes = chunkBytes;
    }

    /** A staged table and how its read went. The staging is owned by the caller. */
    /** @param inference the inferred schema and why, or null when the schema was declared */
    public record Staged(TableStaging staging, CsvReadSummary summary, CsvInference inference) {}

    /**
     * Stages {@code file} as table {@code tableName}.
     *
     * @param declared the schema, or null to infer it ({@link CsvTableReader#infer}); its name is replaced by
     *                 {@code tableName}
     * @throws io.numacube.numa.base.NumacubeException INVALID_INPUT naming {@code file:line:column} for a bad row
     */
    public Staged stage(Path file, String tableName, TableSchema declared, CsvProgress progress) {
        return stage(file, tableName, declared, Map.of(), progress);
    }

    /**
     * As {@link #stage(Path, String, TableSchema, CsvProgress)}, with some columns' types forced ({@code --types}).
     *
     * @param types column name (case-insensitive) to its type, replacing the inferred or declared one; a name that is
     *              no column of the file is an error listing the columns
     */
    public Staged stage(
            Path file, String tableName, TableSchema declared, Map<String, ColumnSpec> types, CsvProgress progress) {
        try (CsvInput in = CsvInput.open(file)) {
            return stage(in, file.toString(), tableName, declared, types, progress);
        } catch (java.io.IOException e) {
            throw CsvInput.failure(file.toString(), e);
        }
    }

    /**
     * Stages CSV text in memory (with its header row, columns in any order; a column it leaves out is NULL) as rows of
     * {@code schema}: a batch to append to a table. Text of over {@value #MIN_BATCH_CHUNK_BYTES} bytes, where the
     * loader has a pool, is cut into chunks of at least that (one per worker, at least two) read on the pool and on
     * the calling thread, which reads any chunk no worker has started, so that a batch never waits behind queries: the
     * same rows, dictionaries and errors. Read so, a batch costs 10-30% more CPU in all (each chunk codes its values
     * anew, and the chunks are merged), for a shorter wait where a core is free.
     *
     * @param source the name errors give the text ({@code source:line:column})
     * @throws io.numacube.numa.base.NumacubeException INVALID_INPUT naming {@code source:line:column} for a bad row
     */
    public Staged stage(byte[] csv, String source, TableSchema schema) {
        return stage(csv, source, schema, null);
    }

    /**
     * As {@link #stage(byte[], String, TableSchema)}, the values of STRING columns that the table's dictionaries
     * {@code known} hold coded with their codes, found by their bytes ({@link TableStaging#TableStaging(TableSchema,
     * io.numacube.engine.storage.Dictionary[])}): the same rows and errors, fewer values decoded and coded anew.
     *
     * @param known the table's dictionaries by column, or null
     */
    public Staged stage(byte[] csv, String source, TableSchema schema, io.numacube.engine.storage.Dictionary[] known) {
        return stage(csv, source, new TableStaging(schema, known));
    }

    /**
     * As {@link #stage(byte[], String, TableSchema)}, into {@code staging}, an empty staging of the batch's columns
     * (one coded against a table's dictionaries: {@code Cube.appendStaging}).
     */
    public Staged stage(byte[] csv, String source, TableStaging staging) {
        TableSchema schema = staging.schema();
        // room for rows of 48 bytes or more (a trade is about 63): the arrays are not copied again and again as they
        // grow
        staging.reserve(staging.rows() + csv.length / 48);
        try (CsvInput in = CsvInput.ofBytes(csv, source)) {
            CsvTableReader batchReader = new CsvTableReader(reader.options(), true);
            long chunk = batchChunkBytes(csv.length);
            CsvReadSummary summary = chunk > 0
                    ? batchReader.readInChunks(
                            CsvChunks.Positional.of(csv),
                            csv.length,
                            source,
                            schema,
                            null,
                            staging,
                            CsvProgress.NONE,
                            workers,
                            chunk)
                    : batchReader.read(in, source, schema, (String) null, new StagingSink(staging), CsvProgress.NONE);
            return new Staged(staging, summary, null);
        } catch (java.io.IOException e) {
            throw CsvInput.failure(source, e);
        }
    }

    /** The bytes of a chunk of a batch of {@code bytes} read in parallel, or 0 to read it on the calling thread. */
    private long batchChunkBytes(long bytes) {
        if (workers == null || workers.workerCount() < 1) {
            return 0;
        }
        int chunks = Math.max(2, workers.workerCount());
        long chunk = chunkBytes > 0 ? chunkBytes : Math.max(MIN_BATCH_CHUNK_BYTES, (bytes + chunks - 1) / chunks);
        return bytes > chunk ? chunk : 0;
    }

    /**
     * Stages {@code files}, in order, as one table: the schema is the declared one or inferred from the first file,
     * and every file is read with it (its header names the same columns, in any order). A file that does not fit is
     * an error naming it, as for one file, and nothing is staged.
     */
    public Staged stageAll(List<Path> files, String tableName, TableSchema declared, CsvProgress progress) {
        return stageAll(files, tableName, declared, Map.of(), progress);
    }

    /** As {@link #stageAll(List, String, TableSchema, CsvProgress)}, with some columns' types forced ({@code --types}). */
    public Staged stageAll(
            List<Path> files,
            String tableName,
            TableSchema declared,
            Map<String, ColumnSpec> types,
            CsvProgress progress) {
        Staged first = stage(files.get(0), tableName, declared, types, progress);
        if (files.size() == 1) {
            return first;
        }
        TableSchema schema = first.staging().schema();
        var hint = misfitHint(" of " + files.get(0), schema, declared != null, types);
        long rows = first.summary().rows();
        long bytes = first.summary().bytes();
        long nanos = first.summary().nanos();
        for (Path file : files.subList(1, files.size())) {
            try (CsvInput in = CsvInput.open(file)) {
                CsvReadSummary s = readInto(in, file.toString(), schema, hint, first.staging(), progress);
                rows += s.rows();
                bytes += s.bytes();
                nanos += s.nanos();
            } catch (java.io.IOException e) {
                throw CsvInput.failure(file.toString(), e);
            }
        }
        return new Staged(first.staging(), new CsvReadSummary(rows, bytes, nanos), first.inference());
    }

    /**
     * What a misfit value's error adds: where the column's type came from (inferred from the first rows {@code ofFile},
     * forced by {@code --types}, or declared) and the {@code --types} option that reads the value, with the type that
     * holds it (DOUBLE for a number in a numeric column, else VARCHAR).
     */
    private BiFunction<String, String, String> misfitHint(
            String ofFile, TableSchema schema, boolean declared, Map<String, ColumnSpec> types) {
        return (column, value) -> {
            int c = schema.indexOf(column);
            if (c < 0) {
                return null;
            }
            ColumnType type = schema.column(c).type();
            String fix = "--types " + schema.name() + "." + column + "="
                    + (schema.column(c).isDecimal() ? widerDecimal(schema.column(c), value) : fittingType(type, value));
            String name = schema.column(c).isDecimal() ? schema.column(c).typeName() : sqlName(type);
            if (forced(types, column) != null) {
                return "column " + column + " is " + name + " by --types; if the value is right, read it with " + fix;
            }
            if (declared) {
                return "column " + column + " is " + name + " by --schema; if the value is right, read it with " + fix;
            }
            return "the column types were inferred from the first "
                    + reader.options().sampleRows() + " rows" + ofFile + " (" + schema.declaration()
                    + "); if the value is right, read the column with " + fix;
        };
    }

    /** The type to suggest for a column of {@code type} holding {@code value}: DOUBLE for a number, else VARCHAR. */
    private static String fittingType(ColumnType type, String value) {
        boolean numeric = type == ColumnType.LONG || type == ColumnType.INT;
        if (numeric && value != null) {
            byte[] b = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (new FieldDecoder().parseDouble(b, 0, b.length) == null) {
                return "DOUBLE";
            }
        }
        return "VARCHAR";
    }

    /** The type to suggest for a DECIMAL column holding {@code value}: the widest DECIMAL of its scale, or VARCHAR. */
    private static String widerDecimal(ColumnSpec column, String value) {
        if (value != null) {
            byte[] b = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int p = ColumnSpec.MAX_DECIMAL_PRECISION;
            if (new FieldDecoder().parseDecimal(b, 0, b.length, p, column.scale()) == null) {
                return "DECIMAL(" + p + "," + column.scale() + ")";
            }
        }
        return "VARCHAR";
    }

    /** The SQL name of a type, as {@code --types} takes it. */
    public static String sqlName(ColumnType type) {
        return switch (type) {
            case STRING -> "VARCHAR";
            case INT, LONG -> "BIGINT";
            default -> type.name();
        };
    }

    private static ColumnSpec forced(Map<String, ColumnSpec> types, String column) {
        for (Map.Entry<String, ColumnSpec> e : types.entrySet()) {
            if (e.getKey().equalsIgnoreCase(column)) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * {@code schema} with the types of {@code types} in place of its own.
     *
     * @throws NumacubeException INVALID_INPUT naming a column of {@code types} that the table lacks, and its columns
     */
    static TableSchema withTypes(TableSchema schema, Map<String, ColumnSpec> types, String source) {
        for (String column : types.keySet()) {
            if (schema.indexOf(column) < 0) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "42703",
                        "--types names a column that table " + schema.name() + " does not have: column=" + column
                                + " file=" + source + " — its columns are "
                                + String.join(
                                        ", ",
                                        schema.columns().stream()
                                                .map(ColumnSpec::name)
                                                .toList()),
                        null,
                        null);
            }
        }
        List<ColumnSpec> cols = new ArrayList<>(schema.size());
        for (ColumnSpec c : schema.columns()) {
            ColumnSpec t = forced(types, c.name());
            cols.add(t == null ? c : new ColumnSpec(c.name(), t.type(), t.precision(), t.scale()));
        }
        return new TableSchema(schema.name(), cols);
    }

    /** The inference with the forced types in its schema, and without notes on the forced columns. */
    private static CsvInference forcedInference(
            CsvInference inference, TableSchema schema, Map<String, ColumnSpec> types) {
        List<CsvInference.Note> notes = inference.notes().stream()
                .filter(n -> forced(types, n.column()) == null)
                .toList();
        return new CsvInference(schema, notes);
    }

    private Staged stage(
            CsvInput in,
            String source,
            String tableName,
            TableSchema declared,
            Map<String, ColumnSpec> types,
            CsvProgress progress) {
        CsvInference inference = declared == null ? reader.inferWithNotes(in.head(), source, tableName) : null;
        TableSchema schema = withTypes(
                inference != null ? inference.schema() : new TableSchema(tableName, declared.columns()), types, source);
        if (inference != null && !types.isEmpty()) {
            inference = forcedInference(inference, schema, types);
        }
        var hint = misfitHint("", schema, declared != null, types);
        TableStaging staging = new TableStaging(schema);
        CsvReadSummary summary = readInto(in, source, schema, hint, staging, progress);
        return new Staged(staging, summary, inference);
    }

    /** Reads {@code in} into {@code staging}: in parallel chunks where the input and the pool allow it. */
    private CsvReadSummary readInto(
            CsvInput in,
            String source,
            TableSchema schema,
            BiFunction<String, String, String> hint,
            TableStaging staging,
            CsvProgress progress) {
        FileChannel file = in.regularFile();
        if (file != null && workers != null && workers.workerCount() > 1) {
            long size;
            try {
                size = file.size();
            } catch (java.io.IOException e) {
                throw CsvInput.failure(source, e);
            }
            long chunk = chunkBytes > 0
                    ? chunkBytes
                    : Math.clamp(size / (4L * workers.workerCount()), MIN_CHUNK_BYTES, MAX_CHUNK_BYTES);
            if (size >= 2 * chunk) {
                CsvReadSummary summary =
                        reader.readInChunks(file::read, size, source, schema, hint, staging, progress, workers, chunk);
                staging.settle(workers);
                return summary;
            }
        }
        return reader.read(in, source, schema, hint, new StagingSink(staging), progress);
    }

    /** Adapts a {@link TableStaging} to the reader's sink. */
    static final class StagingSink implements CsvRowSink {
        private final TableStaging staging;
        /** Whether the staging is a chunk, only appended to another one: free text is then not looked up. */
        private final boolean appendedOnly;

        StagingSink(TableStaging staging) {
            this(staging, false);
        }

        StagingSink(TableStaging staging, boolean appendedOnly) {
            this.staging = staging;
            this.appendedOnly = appendedOnly;
        }

        @Override
        public void setString(int column, String value) {
            staging.setString(column, value);
        }

        @Override
        public int setStringCoded(int column, String value) {
            return staging.setStringCoded(column, value);
        }

        @Override
        public void setCode(int column, int code) {
            staging.setCode(column, code);
        }

        @Override
        public void setFreeText(int column, String value) {
            if (appendedOnly) {
                staging.setFreeText(column, value);
            } else {
                staging.setString(column, value);
            }
        }

        @Override
        public int knownCode(int column, byte[] bytes, int from, int to, int hash) {
            return staging.knownCode(column, bytes, from, to, hash);
        }

        @Override
        public boolean knowsValues(int column) {
            return staging.knowsValues(column);
        }

        @Override
        public void setLong(int column, long value) {
            staging.setLong(column, value);
        }

        @Override
        public void setDouble(int column, double value) {
            staging.setDouble(column, value);
        }

        @Override
        public void setDate(int column, long epochDay) {
            // FieldDecoder yields years 0..9999 only, well inside int
            staging.setDate(column, Math.toIntExact(epochDay));
        }

        @Override
        public void setBoolean(int column, boolean value) {
            staging.setBoolean(column, value);
        }

        @Override
        public void setNull(int column) {
            staging.setNull(column);
        }

        @Override
        public void endRow() {
            staging.endRow();
        }
    }
}
