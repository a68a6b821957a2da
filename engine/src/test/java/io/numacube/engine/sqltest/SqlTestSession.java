package io.numacube.engine.sqltest;

import static org.junit.jupiter.api.Assertions.fail;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs the records of one {@code .test} file, in order, against one numacube {@link Cube} and one {@link DuckDb}
 * holding the same tables. The cube opens at the first record that needs it, with the file's options (default: 2
 * simulated nodes, 1 thread per node, 512-row morsels, so morsels, stealing and merges are exercised). After a load
 * fails, later records are aborted rather than failed. Not thread-safe: the records of a file run one after another;
 * {@link #close()} frees the cube's native memory.
 */
final class SqlTestSession implements AutoCloseable {

    /** The relative tolerance of R columns compared with DuckDB when the record names none. */
    static final double DUCKDB_TOLERANCE = 1e-9;

    private final SqlTestFile file;
    private CubeOptions options =
            CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1).withMorselRows(512);
    private Cube cube;
    private DuckDb duck;
    private String failedLoad;

    SqlTestSession(SqlTestFile file) {
        this.file = file;
    }

    /** Runs one record; throws an assertion error naming {@code file:line}, the SQL, expected and actual rows. */
    void run(SqlTestRecord record) throws Exception {
        if (failedLoad != null) {
            throw new TestAbortedException("not run: the load at " + failedLoad + " failed");
        }
        switch (record) {
            case SqlTestRecord.Option o -> option(o);
            case SqlTestRecord.LoadTrades l ->
                load(l, () -> {
                    cube().generateTrades(l.rows(), l.seed(), ProgressListener.NONE);
                    duck().loadTrades(l.rows(), l.seed());
                });
            case SqlTestRecord.LoadCsv l -> load(l, () -> loadCsv(l));
            case SqlTestRecord.StatementOk s -> statementOk(s);
            case SqlTestRecord.StatementError s -> statementError(s);
            case SqlTestRecord.Query q -> query(q);
        }
    }

    private void option(SqlTestRecord.Option o) {
        if (cube != null) {
            fail(file.where(o) + ": options go before the first load or query");
        }
        String v = o.value();
        options = switch (o.name()) {
            case "threads" -> options.withThreadsPerNode(Integer.parseInt(v));
            case "nodes" -> options.withSimulatedNodes(Integer.parseInt(v));
            case "morsel_rows" -> options.withMorselRows(Integer.parseInt(v));
            case "placement" -> options.withPlacement(Placement.parse(v));
            case "partitioning" -> options.withPartitioning(Partitioning.parse(v));
            case "stealing" -> options.withWorkStealing(Boolean.parseBoolean(v));
            default -> throw new IllegalStateException("the parser lets no other option through: " + o.name());
        };
    }

    /** A load that, when it fails, aborts the file's later records. */
    private interface Load {
        void run() throws Exception;
    }

    private void load(SqlTestRecord record, Load load) throws Exception {
        try {
            load.run();
        } catch (Exception | AssertionError e) {
            failedLoad = file.where(record);
            throw e;
        }
    }

    /** numacube stages the CSV as {@code numacube load} does (types inferred); DuckDB gets the staged values. */
    private void loadCsv(SqlTestRecord.LoadCsv l) throws IOException, SQLException {
        Path csv = l.file() != null ? file.root().resolve(l.file()) : Files.createTempFile("numacube-sqltest-", ".csv");
        try {
            if (l.csvText() != null) {
                Files.writeString(csv, l.csvText(), StandardCharsets.UTF_8);
            }
            java.util.Map<String, io.numacube.engine.schema.ColumnSpec> types = new java.util.LinkedHashMap<>();
            for (String t : l.types()) {
                String column = t.substring(0, t.indexOf('='));
                types.put(
                        column,
                        io.numacube.engine.ingest.csv.CsvSchemas.sqlColumn(
                                column, t.substring(t.indexOf('=') + 1), "types " + t));
            }
            CsvStagingLoader.Staged staged =
                    new CsvStagingLoader(CsvOptions.DEFAULT).stage(csv, l.table(), null, types, CsvProgress.NONE);
            cube().loadTable(staged.staging());
            duck().load(staged.staging());
        } finally {
            if (l.csvText() != null) {
                Files.deleteIfExists(csv);
            }
        }
    }

    private void statementOk(SqlTestRecord.StatementOk s) {
        try {
            cube().query(s.sql());
        } catch (RuntimeException e) {
            throw new AssertionFailedError(header(s, s.sql()) + "expected success, got: " + e, e);
        }
    }

    private void statementError(SqlTestRecord.StatementError s) {
        QueryResult unexpected;
        try {
            unexpected = cube().query(s.sql());
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (!(e instanceof NumacubeException ne) || ne.kind() == NumacubeException.Kind.INTERNAL) {
                throw new AssertionFailedError(
                        header(s, s.sql()) + "expected a user error, got an internal one: " + e, e);
            }
            if (!message.toLowerCase(Locale.ROOT).contains(s.messagePart().toLowerCase(Locale.ROOT))) {
                throw new AssertionFailedError(
                        header(s, s.sql()) + "the error message lacks the expected part\n" + "expected part: "
                                + s.messagePart() + "\nactual message: " + message,
                        s.messagePart(),
                        message);
            }
            if (s.position() != null) {
                Optional<SqlPosition> at = SqlPosition.reportedIn(e);
                if (!at.equals(Optional.of(s.position()))) {
                    throw new AssertionFailedError(
                            header(s, s.sql()) + "expected the error at " + s.position()
                                    + ", the engine reports "
                                    + at.map(SqlPosition::toString).orElse("no position")
                                    + "\nmessage: " + message,
                            s.position().toString(),
                            at.map(SqlPosition::toString).orElse("none"));
                }
            }
            return;
        }
        throw new AssertionFailedError(header(s, s.sql()) + "expected an error containing '" + s.messagePart()
                + "', but the query succeeded with " + unexpected.rowCount() + " rows:\n"
                + ResultText.show(ResultText.lines(ResultText.cells(unexpected), false)));
    }

    private void query(SqlTestRecord.Query q) throws SQLException {
        QueryResult first = runQuery(q);
        String mismatch = ResultText.typeMismatch(first, q.types());
        if (mismatch != null) {
            throw new AssertionFailedError(header(q, q.sql()) + mismatch + "\nactual:\n"
                    + ResultText.show(ResultText.lines(ResultText.cells(first), q.rowSort())));
        }
        if (q.comparedWithDuckDb()) {
            compareWithDuckDb(q, first);
        } else {
            compareWithWritten(q, first);
        }
        List<String> reference = sortedBits(first, q.rowSort());
        for (int run = 2; run <= q.runs(); run++) {
            List<String> again = sortedBits(runQuery(q), q.rowSort());
            if (!again.equals(reference)) {
                throw new AssertionFailedError(
                        header(q, q.sql()) + "run " + run + " of " + q.runs()
                                + " is not bit-identical to run 1\nrun 1:\n" + ResultText.show(reference) + "run " + run
                                + ":\n" + ResultText.show(again),
                        String.join("\n", reference),
                        String.join("\n", again));
            }
        }
    }

    private QueryResult runQuery(SqlTestRecord.Query q) {
        try {
            return cube().query(q.sql());
        } catch (RuntimeException e) {
            throw new AssertionFailedError(header(q, q.sql()) + "expected rows, got an error: " + e, e);
        }
    }

    private static List<String> sortedBits(QueryResult r, boolean rowSort) {
        List<String> bits = ResultText.bits(r);
        if (rowSort) {
            bits.sort(null);
        }
        return bits;
    }

    private void compareWithWritten(SqlTestRecord.Query q, QueryResult ours) {
        List<String> actual = ResultText.lines(ResultText.cells(ours), q.rowSort());
        List<String> expected = q.expected();
        if (q.rowSort()) {
            expected = expected.stream().sorted().toList();
        }
        String difference = WrittenAnswer.firstDifference(expected, actual, q.types(), q.tolerance());
        if (difference != null) {
            throw new AssertionFailedError(
                    header(q, q.sql()) + difference + "\nexpected:\n" + ResultText.show(expected) + "actual:\n"
                            + ResultText.show(actual),
                    String.join("\n", expected),
                    String.join("\n", actual));
        }
    }

    private void compareWithDuckDb(SqlTestRecord.Query q, QueryResult ours) throws SQLException {
        List<Object[]> theirs;
        try {
            theirs = duck().query(q.sql());
        } catch (SQLException e) {
            throw new AssertionFailedError(
                    header(q, q.sql()) + "DuckDB cannot answer this query (write the answer" + " instead): "
                            + e.getMessage(),
                    e);
        }
        double tolerance = q.tolerance() != null ? q.tolerance() : DUCKDB_TOLERANCE;
        int keys = q.rowSort() ? ours.columnCount() : 0;
        try {
            // tolerance 0 means bit-equal doubles (the comparator would otherwise allow its absolute 1e-9 near zero)
            boolean[] exact = new boolean[ours.columnCount()];
            java.util.Arrays.fill(exact, tolerance == 0);
            ResultComparator.assertSame("rows", ours, theirs, keys, exact, !q.rowSort(), tolerance);
        } catch (AssertionError | RuntimeException e) {
            List<String> expected =
                    theirs.stream().map(SqlTestSession::duckLine).toList();
            if (q.rowSort()) {
                expected = expected.stream().sorted().toList();
            }
            throw new AssertionFailedError(
                    header(q, q.sql()) + "numacube differs from DuckDB: " + e.getMessage()
                            + "\nexpected (DuckDB):\n" + ResultText.show(expected) + "actual (numacube):\n"
                            + ResultText.show(ResultText.lines(ResultText.cells(ours), q.rowSort())),
                    e);
        }
    }

    private static String duckLine(Object[] row) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < row.length; c++) {
            sb.append(c == 0 ? "" : "\t")
                    .append(
                            row[c] == null
                                    ? "NULL"
                                    : row[c] instanceof java.math.BigDecimal b ? b.toPlainString() : row[c].toString());
        }
        return sb.toString();
    }

    private String header(SqlTestRecord record, String sql) {
        return file.where(record) + "\nSQL: " + sql.replace("\n", "\n     ") + "\n";
    }

    private Cube cube() {
        if (cube == null) {
            cube = Cube.open(options);
        }
        return cube;
    }

    private DuckDb duck() throws SQLException {
        if (duck == null) {
            duck = new DuckDb();
        }
        return duck;
    }

    /** Closes the cube and DuckDB; safe to call more than once. */
    @Override
    public void close() throws SQLException {
        if (cube != null) {
            cube.close();
            cube = null;
        }
        if (duck != null) {
            duck.close();
            duck = null;
        }
    }
}
