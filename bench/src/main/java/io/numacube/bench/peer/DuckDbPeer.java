package io.numacube.bench.peer;

import io.numacube.bench.peer.TableSource.Column;
import io.numacube.bench.peer.TableSource.SqlType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * DuckDB in-process (JDBC, in-memory database) as the peer: tables loaded through DuckDB's Appender (no text
 * parsing) by {@code threads} connections at once over row ranges, dictionary-coded strings appended as integer
 * codes and decoded by joining small dictionary tables in one {@code CREATE TABLE AS} (appending strings costs ~3x
 * an integer); {@code threads} set equal
 * to numacube's; queries answered as {@link ResultTable}s.
 *
 * <p>Not thread-safe: one connection, used by one thread (loading uses its own threads). {@link #close()} frees the
 * database.
 */
public final class DuckDbPeer implements AutoCloseable {

    /** How {@link #load} gets rows into DuckDB, for reports. */
    public static final String LOAD_PATH = "DuckDB Appender, one connection per thread over row ranges, "
            + "dictionary codes decoded by a join in CREATE TABLE AS (no file)";

    private final DuckDBConnection connection;
    private final int threads;

    private DuckDbPeer(DuckDBConnection connection, int threads) {
        this.connection = connection;
        this.threads = threads;
    }

    /** Opens a fresh in-memory DuckDB using {@code threads} threads. */
    public static DuckDbPeer open(int threads) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        DuckDbPeer peer = new DuckDbPeer(c.unwrap(DuckDBConnection.class), threads);
        peer.set("threads", Integer.toString(threads));
        return peer;
    }

    /** {@code SET name = value}, e.g. {@code set("perfect_ht_threshold", "18")}. */
    public void set(String name, String value) throws SQLException {
        execute("SET " + name + " = " + value);
    }

    /** The current value of a setting, as text. */
    public String setting(String name) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    public String version() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    public int threads() {
        return threads;
    }

    /** Creates {@code source}'s table (replacing one of that name) and appends all its rows; returns the rows. */
    public long load(TableSource source) throws Exception {
        boolean coded = source.columns().stream().anyMatch(c -> c.type() == SqlType.CODED_VARCHAR);
        String target = coded ? source.tableName() + "__codes" : source.tableName();
        execute("CREATE OR REPLACE TABLE " + target + " ("
                + source.columns().stream()
                        .map(c -> c.name() + " "
                                + (c.type() == SqlType.CODED_VARCHAR
                                        ? "INTEGER"
                                        : c.type().name()))
                        .collect(Collectors.joining(", "))
                + ")");
        long rows = source.rowCount();
        int parts = (int) Math.max(1, Math.min(threads, rows / 65536));
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int p = 0; p < parts; p++) {
            long from = rows / parts * p;
            long to = p == parts - 1 ? rows : rows / parts * (p + 1);
            DuckDBConnection c = (DuckDBConnection) connection.duplicate();
            workers.add(Thread.ofPlatform().name("duckdb-load-" + p).start(() -> {
                try (c;
                        DuckDBAppender appender = c.createAppender(DuckDBConnection.DEFAULT_SCHEMA, target)) {
                    source.produce(new AppenderSink(appender), from, to);
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = failure[0] == null ? e : failure[0];
                    }
                }
            }));
        }
        for (Thread t : workers) {
            t.join();
        }
        if (failure[0] != null) {
            throw new SQLException(
                    "loading DuckDB failed: table=" + source.tableName() + " — " + failure[0], failure[0]);
        }
        if (coded) {
            decode(source, target);
        }
        return rows;
    }

    /**
     * Replaces the codes by their strings: one small dictionary table per coded column, joined in one
     * {@code CREATE TABLE AS} (a hash join probe per row, ~3x cheaper here than indexing a list literal per row).
     */
    private void decode(TableSource source, String codes) throws SQLException {
        List<String> select = new ArrayList<>();
        StringBuilder from = new StringBuilder(" FROM " + codes + " t");
        List<String> dictionaries = new ArrayList<>();
        for (Column c : source.columns()) {
            if (c.type() != SqlType.CODED_VARCHAR) {
                select.add("t." + c.name());
                continue;
            }
            String dict = source.tableName() + "__dict_" + c.name();
            dictionaries.add(dict);
            execute("CREATE OR REPLACE TABLE " + dict + " (code INTEGER, value VARCHAR)");
            try (DuckDBAppender a = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, dict)) {
                for (int code = 0; code < c.dictionary().size(); code++) {
                    a.beginRow().append(code).append(c.dictionary().get(code)).endRow();
                }
            }
            select.add(dict + ".value AS " + c.name());
            from.append(" JOIN ")
                    .append(dict)
                    .append(" ON t.")
                    .append(c.name())
                    .append(" = ")
                    .append(dict)
                    .append(".code");
        }
        execute("CREATE OR REPLACE TABLE " + source.tableName() + " AS SELECT " + String.join(", ", select) + from);
        execute("DROP TABLE " + codes);
        for (String d : dictionaries) {
            execute("DROP TABLE " + d);
        }
    }

    /** Runs {@code sql} and reads the whole answer, in the neutral form. */
    public ResultTable query(String sql) throws SQLException {
        return fetch(sql).table();
    }

    /**
     * Runs {@code sql} and reads every cell of the answer through JDBC ({@code getObject}), as a client of DuckDB
     * would; the cells are kept as JDBC gave them, so this is what the bench times.
     */
    public Fetched fetch(String sql) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            List<String> columns = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                columns.add(md.getColumnLabel(i));
            }
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
            return new Fetched(columns, rows);
        }
    }

    /**
     * An answer as JDBC delivered it. Not thread-safe (holds arrays); {@link #table()} builds the neutral form.
     *
     * @param columns column labels
     * @param rows    the cells of each row, as {@code getObject} returned them
     */
    public record Fetched(List<String> columns, List<Object[]> rows) {
        /** The neutral form, for comparison with numacube's answer. */
        public ResultTable table() {
            return new ResultTable(
                    columns, rows.stream().map(r -> java.util.Arrays.asList(r)).toList());
        }
    }

    /** Writes {@code table} whole to a Parquet file (with DuckDB's default compression and row groups), for other peers. */
    public void exportParquet(String table, java.nio.file.Path file) throws SQLException {
        execute("COPY " + table + " TO '" + file.toAbsolutePath().toString().replace("'", "''") + "' (FORMAT parquet)");
    }

    /** Runs a statement that returns no rows (a {@code COPY}, a {@code CREATE TABLE AS}). */
    public void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    private record AppenderSink(DuckDBAppender appender) implements TableSource.RowSink {
        @Override
        public void beginRow() throws SQLException {
            appender.beginRow();
        }

        @Override
        public void appendLong(long v) throws SQLException {
            appender.append(v);
        }

        @Override
        public void appendInt(int v) throws SQLException {
            appender.append(v);
        }

        @Override
        public void appendDouble(double v) throws SQLException {
            appender.append(v);
        }

        @Override
        public void appendString(String v) throws SQLException {
            appender.append(v);
        }

        @Override
        public void appendCode(int code) throws SQLException {
            appender.append(code);
        }

        @Override
        public void appendEpochDay(int v) throws SQLException {
            appender.appendEpochDays(v);
        }

        @Override
        public void appendNull() throws SQLException {
            appender.appendNull();
        }

        @Override
        public void endRow() throws SQLException {
            appender.endRow();
        }
    }
}
