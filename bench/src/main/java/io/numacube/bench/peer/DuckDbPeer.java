package io.numacube.bench.peer;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * DuckDB in-process (JDBC, in-memory database) as the peer: tables loaded through DuckDB's Appender (no text
 * parsing), {@code threads} set equal to numacube's, queries answered as {@link ResultTable}s.
 *
 * <p>Not thread-safe: one connection, used by one thread. {@link #close()} frees the database.
 */
public final class DuckDbPeer implements AutoCloseable {

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
        try (Statement s = connection.createStatement()) {
            s.execute("SET " + name + " = " + value);
        }
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
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    public int threads() {
        return threads;
    }

    /** Creates {@code source}'s table and appends all its rows; returns the rows appended. */
    public long load(TableSource source) throws Exception {
        String ddl = "CREATE OR REPLACE TABLE " + source.tableName() + " (" + source.columns().stream()
                .map(c -> c.name() + " " + c.type().name()).collect(Collectors.joining(", ")) + ")";
        try (Statement s = connection.createStatement()) {
            s.execute(ddl);
        }
        long[] rows = new long[1];
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA,
                source.tableName())) {
            source.produce(new TableSource.RowSink() {
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
                public void appendEpochDay(int v) throws SQLException {
                    appender.appendEpochDays(v);
                }

                @Override
                public void endRow() throws SQLException {
                    appender.endRow();
                    rows[0]++;
                }
            });
            appender.flush();
        }
        return rows[0];
    }

    /** Runs {@code sql} and reads the whole answer. */
    public ResultTable query(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnLabel(i));
            }
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns.size());
                for (int i = 1; i <= columns.size(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v);
                }
                rows.add(row);
            }
            return new ResultTable(columns, rows);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
