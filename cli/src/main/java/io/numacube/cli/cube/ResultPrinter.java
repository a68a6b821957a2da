package io.numacube.cli.cube;

import io.numacube.cli.output.Json;
import io.numacube.engine.ingest.csv.CsvWriter;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a {@link QueryResult}: as an aligned table (numbers right-aligned, doubles rounded for reading to
 * {@value #TABLE_DIGITS} significant digits, so float noise such as {@code -4074.3999999999996} reads
 * {@code -4074.4}; NULL for nulls), as RFC 4180 CSV with a header (nulls as empty fields), or as a JSON
 * array of row objects (dates as strings, nulls as null). Stateless.
 */
public final class ResultPrinter {

    /** The output formats. */
    public enum Format {
        TABLE,
        CSV,
        JSON
    }

    private ResultPrinter() {}

    /**
     * @param maxRows the most rows to print (the table format then says how many were left out); -1 for all
     */
    public static void print(QueryResult r, Format format, PrintWriter out, int maxRows) {
        int shown = maxRows < 0 ? r.rowCount() : Math.min(maxRows, r.rowCount());
        switch (format) {
            case TABLE -> table(r, out, shown);
            case CSV -> csv(r, out, shown);
            case JSON -> out.print(Json.print(json(r, shown)));
        }
        out.flush();
    }

    private static void table(QueryResult r, PrintWriter out, int shown) {
        boolean[] right = new boolean[r.columnCount()];
        for (int c = 0; c < right.length; c++) {
            ColumnType t = r.columnTypes().get(c);
            right[c] = t == ColumnType.INT || t == ColumnType.LONG || t == ColumnType.DOUBLE || t == ColumnType.DECIMAL;
        }
        TextTable table = new TextTable(r.columnNames(), right);
        for (int row = 0; row < shown; row++) {
            List<String> cells = new ArrayList<>(r.columnCount());
            for (int c = 0; c < r.columnCount(); c++) {
                cells.add(text(r, row, c));
            }
            table.row(cells);
        }
        table.print(out);
        if (shown < r.rowCount()) {
            out.println(String.format(Locale.ROOT, "(%,d of %,d rows shown)", shown, r.rowCount()));
        }
    }

    /** A value as the table shows it; null for SQL NULL. */
    public static String text(QueryResult r, int row, int column) {
        if (r.isNull(row, column)) {
            return null;
        }
        if (r.columnTypes().get(column) == ColumnType.DOUBLE) {
            return readable(r.getDouble(row, column));
        }
        return r.getString(row, column);
    }

    /** Significant digits of a double in the table format (CSV and JSON keep every digit). */
    static final int TABLE_DIGITS = 12;

    /** {@code v} rounded to {@value #TABLE_DIGITS} significant digits, plain for ordinary magnitudes. */
    static String readable(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        double a = Math.abs(v);
        if (v == 0 || (a >= 1e-6 && a < 1e16)) {
            BigDecimal d = new BigDecimal(v)
                    .round(new java.math.MathContext(TABLE_DIGITS))
                    .stripTrailingZeros();
            return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
        }
        return plain(v);
    }

    /** The shortest decimal that reads back as {@code v}, without an exponent for ordinary magnitudes. */
    static String plain(double v) {
        double a = Math.abs(v);
        if (v == 0 || (a >= 1e-6 && a < 1e16)) {
            return BigDecimal.valueOf(v).toPlainString();
        }
        return Double.toString(v);
    }

    private static void csv(QueryResult r, PrintWriter out, int shown) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CsvWriter w = new CsvWriter(bytes)) {
            for (String name : r.columnNames()) {
                w.writeString(name);
            }
            w.endRow();
            for (int row = 0; row < shown; row++) {
                for (int c = 0; c < r.columnCount(); c++) {
                    if (r.isNull(row, c)) {
                        w.writeNull();
                        continue;
                    }
                    switch (r.columnTypes().get(c)) {
                        case STRING -> w.writeString(r.getString(row, c));
                        case INT, LONG -> w.writeLong(r.getLong(row, c));
                        case DATE -> w.writeDate(r.getLong(row, c));
                        case DOUBLE -> w.writeDouble(r.getDouble(row, c));
                        case BOOLEAN -> w.writeBoolean(r.getLong(row, c) != 0);
                        case TIMESTAMP -> w.writeTimestamp(r.getLong(row, c));
                        case DECIMAL -> w.writeDecimal(r.getDecimal(row, c));
                    }
                }
                w.endRow();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.print(bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * The rows as a JSON array of objects keyed by column name. A name that repeats gets {@code _1}, {@code _2}, ...
     * (JSON keys are unique); NaN and infinities, which JSON numbers cannot hold, are the strings {@code "NaN"},
     * {@code "Infinity"} and {@code "-Infinity"}.
     */
    public static List<Object> json(QueryResult r, int shown) {
        List<String> keys = uniqueNames(r.columnNames());
        List<Object> rows = Json.arr();
        for (int row = 0; row < shown; row++) {
            Json.Obj o = Json.obj();
            for (int c = 0; c < r.columnCount(); c++) {
                Object v = r.getObject(row, c);
                o.put(
                        keys.get(c),
                        switch (v) {
                            case java.time.LocalDate d -> d.toString();
                            case java.time.LocalDateTime t -> r.getString(row, c);
                            case Double d when d.isNaN() || d.isInfinite() -> d.toString();
                            case null, default -> v;
                        });
            }
            rows.add(o);
        }
        return rows;
    }

    /** {@code names} with each repeat suffixed {@code _1}, {@code _2}, ... so that no two are equal. */
    static List<String> uniqueNames(List<String> names) {
        java.util.Set<String> used = new java.util.HashSet<>(names);
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<String> out = new java.util.ArrayList<>();
        for (String n : names) {
            String k = n;
            if (!seen.add(k)) {
                int i = 1;
                do {
                    k = n + "_" + i++;
                } while (used.contains(k) || !seen.add(k));
            }
            out.add(k);
        }
        return out;
    }

    /** The plan in words and where the time went, two lines (for {@code query --explain}). */
    public static String explanation(QueryResult r) {
        QueryStats s = r.stats();
        QueryStats.Phases ph = s.phases();
        double parse = s.wallSeconds() - ph.planSeconds() - ph.scanSeconds() - ph.finishSeconds();
        return "-- plan: " + s.plan() + System.lineSeparator()
                + String.format(
                        Locale.ROOT,
                        "-- time: plan %.1f ms, scan %.1f ms, finish %.1f ms, parse and bind %.1f ms",
                        ph.planSeconds() * 1e3,
                        ph.scanSeconds() * 1e3,
                        ph.finishSeconds() * 1e3,
                        parse * 1e3);
    }

    /** One line about a query's run, for stderr: rows, time, morsels and where they ran. */
    public static String statsLine(QueryResult r) {
        QueryStats s = r.stats();
        String rows = String.format(
                Locale.ROOT, "%,d %s in %.3f s", r.rowCount(), r.rowCount() == 1 ? "row" : "rows", s.wallSeconds());
        if (s.morsels() == 0) {
            return String.format(Locale.ROOT, "(%s; no morsel ran, %,d skipped)", rows, s.morselsSkipped());
        }
        return String.format(
                Locale.ROOT,
                "(%s; %,d %s: %.1f%% on their home node, %,d stolen, %,d skipped)",
                rows,
                s.morsels(),
                s.morsels() == 1 ? "morsel" : "morsels",
                100 * s.homeFraction(),
                s.morselsStolen(),
                s.morselsSkipped());
    }
}
