package io.numacube.engine.testing;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Dictionary;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * An in-memory DuckDB for differential tests: create tables from numacube schemas, append rows, run SQL and compare
 * results with a numacube {@link QueryResult}. Not thread-safe.
 */
public final class DuckDb implements AutoCloseable {

    private final Connection conn;

    public DuckDb() throws SQLException {
        conn = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = conn.createStatement()) {
            s.execute("SET threads TO 1");
        }
    }

    /** Replaces table {@code schema.name()} with {@code rows} (values: String, Long, Double; DATE as epoch day). */
    public void load(TableSchema schema, List<Object[]> rows) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE " + schema.name() + " (");
        for (int c = 0; c < schema.size(); c++) {
            ColumnSpec col = schema.column(c);
            ddl.append(c == 0 ? "" : ", ")
                    .append(col.name())
                    .append(' ')
                    .append(
                            col.isDecimal()
                                    ? col.typeName()
                                    : switch (col.type()) {
                                        case STRING -> "VARCHAR";
                                        case INT, LONG -> "BIGINT";
                                        case DATE -> "DATE";
                                        case DOUBLE -> "DOUBLE";
                                        case BOOLEAN -> "BOOLEAN";
                                        case TIMESTAMP -> "TIMESTAMP";
                                        case DECIMAL -> throw new IllegalArgumentException("DECIMAL is a result type");
                                    });
        }
        try (Statement s = conn.createStatement()) {
            s.execute(ddl.append(")").toString());
        }
        try (DuckDBAppender app =
                conn.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, schema.name())) {
            for (Object[] row : rows) {
                app.beginRow();
                for (int c = 0; c < schema.size(); c++) {
                    ColumnType t = schema.column(c).type();
                    if (row[c] == null) {
                        app.appendNull();
                        continue;
                    }
                    if (schema.column(c).isDecimal()) {
                        app.append(BigDecimal.valueOf(
                                (Long) row[c], schema.column(c).scale()));
                        continue;
                    }
                    switch (t) {
                        case STRING -> app.append((String) row[c]);
                        case INT, LONG -> app.append((long) (Long) row[c]);
                        case DATE -> app.append(LocalDate.ofEpochDay((Long) row[c]));
                        case DOUBLE -> app.append((double) (Double) row[c]);
                        case BOOLEAN -> app.append((Long) row[c] != 0);
                        case TIMESTAMP -> app.append(timestamp((Long) row[c]));
                    }
                }
                app.endRow();
            }
        }
    }

    /**
     * Loads the generator's trades ({@code rows} rows of seed {@code seed}), fx and books tables (as {@code
     * Cube.generateTrades} does), row by row.
     */
    public void loadTrades(long rows, long seed) throws SQLException {
        TradesGenerator gen = new TradesGenerator(seed, rows);
        TradeRow r = new TradeRow();
        List<Object[]> trades = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            gen.row(i, r);
            trades.add(new Object[] {
                r.tradeId,
                r.deskName(),
                r.bookName(),
                r.currencyCode(),
                (long) r.epochDay(),
                r.counterpartyName(),
                r.pnl,
                r.notional
            });
        }
        load(TradesGenerator.TRADES, trades);
        List<Object[]> fx = new ArrayList<>();
        for (int c = 0; c < TradesGenerator.CURRENCIES.size(); c++) {
            fx.add(new Object[] {TradesGenerator.CURRENCIES.get(c), TradesGenerator.rateToUsd(c)});
        }
        load(TradesGenerator.FX, fx);
        load(io.numacube.engine.ingest.TradesLoader.books());
    }

    /** Replaces table {@code staging.schema().name()} with the staged rows: the very values numacube loads. */
    public void load(TableStaging staging) throws SQLException {
        TableSchema schema = staging.schema();
        Dictionary[] dictionaries = new Dictionary[schema.size()];
        int[][] remaps = new int[schema.size()][];
        for (int c = 0; c < schema.size(); c++) {
            if (schema.column(c).type().isDimension()) {
                var sorted = staging.dictionary(c).buildSorted();
                dictionaries[c] = sorted.dictionary();
                remaps[c] = sorted.remap();
            }
        }
        List<Object[]> rows = new ArrayList<>(staging.rows());
        for (int r = 0; r < staging.rows(); r++) {
            Object[] row = new Object[schema.size()];
            for (int c = 0; c < schema.size(); c++) {
                int code = dictionaries[c] == null ? -1 : remaps[c][staging.codes(c)[r]];
                row[c] = staging.isNull(c, r)
                        ? null
                        : switch (schema.column(c).type()) {
                            case STRING -> dictionaries[c].string(code);
                            case INT, DATE, BOOLEAN -> dictionaries[c].longValue(code);
                            case LONG, TIMESTAMP -> staging.longs(c)[r];
                            case DOUBLE -> staging.doubles(c)[r];
                            case DECIMAL -> throw new IllegalArgumentException("DECIMAL is a result type");
                        };
            }
            rows.add(row);
        }
        load(schema, rows);
    }

    /** Runs {@code sql}; each row as String (keys, dates), BigDecimal (integers) or Double, null for NULL. */
    public List<Object[]> query(String sql) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int c = 0; c < n; c++) {
                    Object v = rs.getObject(c + 1);
                    if (v == null) {
                        row[c] = null;
                    } else if (rs.getMetaData().getColumnType(c + 1) == java.sql.Types.TIMESTAMP) {
                        row[c] = text(rs.getObject(c + 1, java.time.LocalDateTime.class));
                    } else if (v instanceof Double || v instanceof Float) {
                        row[c] = ((Number) v).doubleValue();
                    } else if (v instanceof Number) {
                        row[c] = new BigDecimal(v.toString());
                    } else {
                        row[c] = rs.getString(c + 1);
                    }
                }
                out.add(row);
            }
        }
        return out;
    }

    /**
     * A DuckDB TIMESTAMP as DuckDB's CAST to VARCHAR writes it ({@code 2013-01-01 05:00:00}, a fraction without
     * trailing zeros only when there is one): written here independently of the engine's formatting, which it checks.
     */
    static String text(java.time.LocalDateTime t) {
        String s = t.toLocalDate() + " "
                + String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        if (t.getNano() == 0) {
            return s;
        }
        return s + ("." + String.format(java.util.Locale.ROOT, "%06d", t.getNano() / 1000)).replaceAll("0+$", "");
    }

    private static java.time.LocalDateTime timestamp(long micros) {
        return java.time.LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000,
                java.time.ZoneOffset.UTC);
    }

    public void execute(String sql) throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
