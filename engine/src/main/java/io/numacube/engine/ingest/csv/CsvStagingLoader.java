package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a CSV file into a new {@link TableStaging}, ready for {@code Cube.loadTable}: the schema is the declared one,
 * or inferred from the file when none is declared. Because everything is staged first, a bad row leaves no trace:
 * the exception propagates before any cube sees the rows. Stateless apart from its options; thread-safe, each call
 * reads on the calling thread.
 */
public final class CsvStagingLoader {

    private final CsvTableReader reader;

    public CsvStagingLoader(CsvOptions options) {
        this.reader = new CsvTableReader(options);
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
        try (CsvInput in = CsvInput.open(file)) {
            return stage(in, file.toString(), tableName, declared, progress);
        } catch (java.io.IOException e) {
            throw CsvInput.failure(file.toString(), e);
        }
    }

    /**
     * Stages {@code files}, in order, as one table: the schema is the declared one or inferred from the first file,
     * and every file is read with it (its header names the same columns, in any order). A file that does not fit is
     * an error naming it, as for one file, and nothing is staged.
     */
    public Staged stageAll(List<Path> files, String tableName, TableSchema declared, CsvProgress progress) {
        Staged first = stage(files.get(0), tableName, declared, progress);
        if (files.size() == 1) {
            return first;
        }
        TableSchema schema = first.staging().schema();
        String hint = declared != null ? null : inferredHint(" of " + files.get(0), schema);
        long rows = first.summary().rows();
        long bytes = first.summary().bytes();
        long nanos = first.summary().nanos();
        for (Path file : files.subList(1, files.size())) {
            try (CsvInput in = CsvInput.open(file)) {
                CsvReadSummary s =
                        reader.read(in, file.toString(), schema, hint, new StagingSink(first.staging()), progress);
                rows += s.rows();
                bytes += s.bytes();
                nanos += s.nanos();
            } catch (java.io.IOException e) {
                throw CsvInput.failure(file.toString(), e);
            }
        }
        return new Staged(first.staging(), new CsvReadSummary(rows, bytes, nanos), first.inference());
    }

    /** What a misfit value's error adds when the types were inferred (from the first rows {@code ofFile}). */
    private String inferredHint(String ofFile, TableSchema schema) {
        return "the column types were inferred from the first "
                + reader.options().sampleRows() + " rows" + ofFile + " (" + schema.declaration()
                + "); if the value is right, declare the table's schema";
    }

    private Staged stage(CsvInput in, String source, String tableName, TableSchema declared, CsvProgress progress) {
        CsvInference inference = declared == null ? reader.inferWithNotes(in.head(), source, tableName) : null;
        TableSchema schema = inference != null ? inference.schema() : new TableSchema(tableName, declared.columns());
        String hint = declared != null ? null : inferredHint("", schema);
        TableStaging staging = new TableStaging(schema);
        CsvReadSummary summary = reader.read(in, source, schema, hint, new StagingSink(staging), progress);
        return new Staged(staging, summary, inference);
    }

    /** Adapts a {@link TableStaging} to the reader's sink. */
    static final class StagingSink implements CsvRowSink {
        private final TableStaging staging;

        StagingSink(TableStaging staging) {
            this.staging = staging;
        }

        @Override
        public void setString(int column, String value) {
            staging.setString(column, value);
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
