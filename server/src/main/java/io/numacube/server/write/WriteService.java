package io.numacube.server.write;

import io.numacube.engine.Cube;
import io.numacube.engine.TableBatch;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.query.ClientError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Appends batches of rows to the cube's tables for both front ends: reads each batch into a staging with its table's
 * columns (a bad row rejects the whole write, naming its line and field), hands the write to the {@link BatchLog}
 * (the write-ahead log of a durable server: it returns once the write is on disk), then appends it to the cube as one
 * atomic version ({@link Cube#append(List)}), and only then answers. So an acknowledged write is durable and visible
 * to every query that starts after the answer; a rejected one changes nothing and is not logged.
 *
 * <p>Thread-safe: any number of writers at once; the log may group their writes into one flush, and the cube
 * serialises the appends (appends commute, so the order the log holds them in and the order the cube applied them in
 * give the same table). A write holds a gate from its log to its append, which {@link #quiesced} closes, so a
 * checkpoint sees the cube holding exactly the writes the log holds up to some point. A write that was logged but then
 * failed to be appended (out of memory) leaves the log ahead of the cube: every later write and checkpoint is refused
 * until a restart replays the log.
 */
public final class WriteService {

    /** Where writes are made durable before they are applied. */
    @FunctionalInterface
    public interface BatchLog {
        /** Does nothing: the server keeps its data in memory only. */
        BatchLog NONE = batches -> {};

        /** Makes {@code batches} (one write) durable; returns only when they are. */
        void write(List<Batch> batches);
    }

    /**
     * Rows for one table, as the client sent them.
     *
     * @param table  the table's name (any case)
     * @param format how {@code body} is written
     * @param body   the rows
     * @param source what errors call it ({@code POST /v1/tables/trades/rows})
     */
    public record Batch(String table, BatchFormat format, byte[] body, String source) {}

    /**
     * What one batch did.
     *
     * @param table   the table's name as the cube has it
     * @param rows    rows appended
     * @param version the table's version that holds them
     */
    public record Appended(String table, int rows, long version) {}

    private static final com.fasterxml.jackson.core.JsonFactory JSON = new com.fasterxml.jackson.core.JsonFactory();

    private final Cube cube;
    private final BatchLog log;
    private final WriteGate gate = new WriteGate();

    public WriteService(Cube cube, BatchLog log) {
        this.cube = java.util.Objects.requireNonNull(cube, "cube must not be null");
        this.log = java.util.Objects.requireNonNull(log, "log must not be null");
    }

    public Cube cube() {
        return cube;
    }

    /** Appends one batch; see {@link #commit}. */
    public Appended append(Batch batch) {
        return commit(List.of(batch)).get(0);
    }

    /**
     * Appends {@code batches} as one atomic write (a transaction's), logged first; per batch, what it did.
     *
     * @throws io.numacube.numa.base.NumacubeException for an unknown table (42P01) or a bad row (naming the batch's
     *     source, line and field); nothing is logged or appended then
     */
    public List<Appended> commit(List<Batch> batches) {
        List<TableBatch> staged = stage(batches);
        return gate.write(() -> {
            log.write(batches);
            try {
                return apply(staged);
            } catch (RuntimeException | Error e) {
                if (log != BatchLog.NONE) {
                    gate.markInDoubt(batches.isEmpty() ? "" : batches.get(0).table(), e);
                }
                throw e;
            }
        });
    }

    /**
     * Runs {@code action} while no write is between its log and its append: every write the log holds is in the cube,
     * and no write the cube holds is missing from the log. A checkpoint captures its snapshot and the log's position
     * here. Writers wait while the action runs, so it must be quick (take a snapshot, read an LSN; no I/O).
     *
     * @throws io.numacube.numa.base.NumacubeException 58000 once a logged write failed to be appended (the log then
     *     holds a write the cube lacks; a restart replays it)
     */
    public <T> T quiesced(java.util.function.Supplier<T> action) {
        return gate.quiesced(action);
    }

    /**
     * Refuses later writes (57P01, the server is shutting down) and waits up to {@code wait} for those in flight to be
     * logged and appended; true when none is left. Idempotent.
     */
    public boolean stop(java.time.Duration wait) {
        return gate.stop(wait);
    }

    /**
     * Reads {@code batch} as {@link #commit} would, without appending it: a transaction block's INSERT is refused when
     * it is made, not at COMMIT.
     */
    public int check(Batch batch) {
        return stage(List.of(batch)).get(0).rows().rows();
    }

    /** Appends a write read back from the log (recovery): as {@link #commit}, without logging it again. */
    public List<Appended> replay(List<Batch> batches) {
        return apply(stage(batches));
    }

    private List<TableBatch> stage(List<Batch> batches) {
        List<TableBatch> staged = new ArrayList<>();
        for (Batch b : batches) {
            staged.add(new TableBatch(b.table(), read(b, cube.schema(b.table()))));
        }
        return staged;
    }

    private List<Appended> apply(List<TableBatch> staged) {
        if (staged.isEmpty()) {
            return List.of();
        }
        Map<String, Long> versions = cube.append(staged);
        List<Appended> out = new ArrayList<>();
        for (TableBatch b : staged) {
            String key = b.table().toLowerCase(java.util.Locale.ROOT);
            out.add(new Appended(b.rows().schema().name(), b.rows().rows(), versions.get(key)));
        }
        return out;
    }

    /**
     * The rows of an INSERT as a batch of its table, checked against the table's columns.
     *
     * @throws io.numacube.numa.base.NumacubeException 42P01 for an unknown table, 42703 for an unknown column, 42601
     *     for a row with another number of values than columns
     */
    public Batch batch(InsertStatement insert) {
        TableSchema schema = cube.schema(insert.table());
        List<String> names = insert.columns().isEmpty() ? columnNames(insert.table()) : insert.columns();
        for (String c : names) {
            if (schema.indexOf(c) < 0) {
                throw ClientError.of(
                                "42703",
                                "column \"" + c + "\" of relation \"" + schema.name()
                                        + "\" does not exist — its columns are "
                                        + String.join(", ", columnNames(insert.table())))
                        .toException();
            }
        }
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        int line = 0;
        for (List<String> row : insert.rows()) {
            line++;
            if (row.size() != names.size()) {
                throw ClientError.of(
                                "42601",
                                "INSERT has " + (row.size() > names.size() ? "more" : "fewer")
                                        + " expressions than target columns: row " + line + " has " + row.size()
                                        + " values for " + names.size() + " columns")
                        .toException();
            }
            jsonLine(names, row, body);
        }
        return new Batch(insert.table(), BatchFormat.JSON_LINES, body.toByteArray(), "INSERT INTO " + insert.table());
    }

    private static void jsonLine(List<String> names, List<String> values, java.io.ByteArrayOutputStream out) {
        try (com.fasterxml.jackson.core.JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (int i = 0; i < names.size(); i++) {
                g.writeStringField(names.get(i), values.get(i));
            }
            g.writeEndObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        out.write('\n');
    }

    /** The names of {@code table}'s columns, in order. */
    public List<String> columnNames(String table) {
        return cube.schema(table).columns().stream()
                .map(io.numacube.engine.schema.ColumnSpec::name)
                .toList();
    }

    /** The rows of {@code b} as a staging of {@code schema}'s columns. */
    static TableStaging read(Batch b, TableSchema schema) {
        return switch (b.format()) {
            case CSV ->
                new CsvStagingLoader(CsvOptions.DEFAULT)
                        .stage(b.body(), b.source(), schema)
                        .staging();
            case JSON_LINES -> new JsonLinesReader(schema, b.source()).read(b.body());
        };
    }
}
