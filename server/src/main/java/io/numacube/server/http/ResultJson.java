package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.query.DateTexts;
import io.numacube.server.query.SqlTypeNames;
import java.io.IOException;

/**
 * Writes a query's answer as the JSON body of {@code POST /v1/query}:
 *
 * <pre>{@code
 * {"columns": [{"name": "desk", "type": "VARCHAR"}, ...],
 *  "rows": [["DESK-01", 1234.5], ...],
 *  "row_count": 50,
 *  "stats": {"ms": 3.2, "rows_scanned": 100000, "morsels_home_pct": 100.0, "query_id": "q17", "version": 4,
 *            "versions": {"trades": 4, "books": 1}}}
 * }</pre>
 *
 * Values as the CLI's {@code --format json} writes them: BIGINT and DOUBLE as JSON numbers, DECIMAL as a number
 * with every digit of its scale and no exponent ({@code 12.50}), VARCHAR as a string, BOOLEAN as {@code true} or
 * {@code false}, DATE as {@code 2025-01-02}, TIMESTAMP as {@code 2025-01-02 05:00:00} (ISO 8601 with a space, as
 * PostgreSQL and DuckDB print it; a fraction only when not zero), NULL as {@code null}; NaN and the infinities,
 * which JSON numbers cannot hold, as the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}.
 * Stateless.
 */
final class ResultJson {

    private ResultJson() {}

    /** Writes one cell of a column, chosen once per column so that no value is boxed on its way out. */
    @FunctionalInterface
    private interface Cell {
        void write(QueryResult r, int row, int column, JsonGenerator g) throws IOException;
    }

    static void write(QueryResult r, String queryId, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("columns");
        Cell[] cells = new Cell[r.columnCount()];
        for (int c = 0; c < r.columnCount(); c++) {
            g.writeStartObject();
            g.writeStringField("name", r.columnNames().get(c));
            g.writeStringField("type", SqlTypeNames.of(r, c));
            g.writeEndObject();
            cells[c] = cell(r.columnTypes().get(c));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rows");
        for (int row = 0; row < r.rowCount(); row++) {
            g.writeStartArray();
            for (int c = 0; c < cells.length; c++) {
                if (r.isNull(row, c)) {
                    g.writeNull();
                } else {
                    cells[c].write(r, row, c, g);
                }
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeNumberField("row_count", r.rowCount());
        stats(r.stats(), queryId, g);
        g.writeEndObject();
    }

    private static Cell cell(ColumnType type) {
        return switch (type) {
            case STRING -> (r, row, c, g) -> g.writeString(r.getString(row, c));
            case INT, LONG -> (r, row, c, g) -> g.writeNumber(r.getLong(row, c));
            case BOOLEAN -> (r, row, c, g) -> g.writeBoolean(r.getLong(row, c) != 0);
            case DECIMAL -> (r, row, c, g) -> g.writeNumber(r.getDecimal(row, c));
            case DATE -> ResultJson::writeDate;
            case DOUBLE -> ResultJson::writeDouble;
            case TIMESTAMP -> (r, row, c, g) -> g.writeString(r.getString(row, c));
        };
    }

    /** A date's digits need no escaping: written as they are, between quotes. */
    private static void writeDate(QueryResult r, int row, int c, JsonGenerator g) throws IOException {
        byte[] iso = DateTexts.isoUtf8(r.getLong(row, c));
        g.writeRawUTF8String(iso, 0, iso.length);
    }

    private static void writeDouble(QueryResult r, int row, int c, JsonGenerator g) throws IOException {
        double d = r.getDouble(row, c);
        if (Double.isFinite(d)) {
            g.writeNumber(d);
        } else {
            g.writeString(Double.toString(d));
        }
    }

    private static void stats(QueryStats s, String queryId, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("stats");
        g.writeNumberField("ms", Math.round(s.wallSeconds() * 1e6) / 1e3);
        g.writeNumberField("rows_scanned", s.rowsScanned());
        g.writeNumberField("morsels", s.morsels());
        g.writeNumberField("morsels_skipped", s.morselsSkipped());
        g.writeNumberField("morsels_home_pct", Math.round(s.homeFraction() * 1000) / 10.0);
        g.writeStringField("query_id", queryId);
        g.writeNumberField("version", s.version());
        g.writeObjectFieldStart("versions");
        for (var e : s.versions().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
