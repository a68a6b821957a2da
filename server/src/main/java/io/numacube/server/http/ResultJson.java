package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.server.query.SqlTypeNames;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;

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

    static void write(QueryResult r, String queryId, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("columns");
        for (int c = 0; c < r.columnCount(); c++) {
            g.writeStartObject();
            g.writeStringField("name", r.columnNames().get(c));
            g.writeStringField("type", SqlTypeNames.of(r.columnTypes().get(c), r.scale(c)));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rows");
        for (int row = 0; row < r.rowCount(); row++) {
            g.writeStartArray();
            for (int c = 0; c < r.columnCount(); c++) {
                value(r, row, c, g);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeNumberField("row_count", r.rowCount());
        stats(r.stats(), queryId, g);
        g.writeEndObject();
    }

    private static void value(QueryResult r, int row, int c, JsonGenerator g) throws IOException {
        switch (r.getObject(row, c)) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Long l -> g.writeNumber(l);
            case Boolean b -> g.writeBoolean(b);
            case BigDecimal d -> g.writeNumber(d);
            case Double d when d.isNaN() || d.isInfinite() -> g.writeString(d.toString());
            case Double d -> g.writeNumber(d);
            case LocalDate d -> g.writeString(d.toString());
            default -> g.writeString(r.getString(row, c));
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
