package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.query.SqlTypeNames;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes a query's answer in numacube's columnar format ({@value #MEDIA_TYPE}), which {@code POST /v1/query} sends to a
 * request whose {@code Accept} names it (the Spark connector's): whole typed arrays instead of JSON rows, read
 * without parsing a value.
 *
 * <pre>
 * magic        4 bytes  "NCB1"
 * header       int32 length, then that many bytes of UTF-8 JSON:
 *              {"columns": [{"name": "desk", "type": "VARCHAR"}, ...], "row_count": N, "query_id": "q7",
 *               "versions": {"trades": 4}, "shard": "0/2"}      ("shard" only from a server started with --shard)
 * per column, in the header's order:
 *   nulls      ceil(N / 8) bytes: bit (r &amp; 7) of byte (r &gt;&gt; 3) is set when row r is NULL
 *   values     BIGINT; TIMESTAMP (microseconds since 1970-01-01 00:00 UTC); DECIMAL(18,s) (unscaled): N int64
 *              DOUBLE: N float64;  DATE: N int32 (days since 1970-01-01);  BOOLEAN: N bytes, 0 or 1
 *              VARCHAR: N + 1 int32 offsets into the UTF-8 bytes that follow them, then those bytes
 * </pre>
 *
 * Every number is little-endian; a NULL's value is 0 (an empty string). The types are those of the JSON answer
 * ({@link SqlTypeNames}). A VARCHAR column's bytes must stay under 2 GiB.
 *
 * <p>In batches, when the {@code Accept} asks for them ({@code application/vnd.numacube.columnar; batch-rows=B}), so
 * that a reader holds one batch at a time, not the whole answer:
 *
 * <pre>
 * magic        4 bytes  "NCB2"
 * header       as above, with "batch_rows": B
 * per batch    ceil(N / B) of them (none for no rows), each of B rows but the last:
 *   rows       int32, the batch's row count n
 *   columns    per column, as above for n rows (the null bitmap's bit r is the batch's row r)
 * </pre>
 *
 * Stateless.
 */
final class ResultColumnar {

    static final String MEDIA_TYPE = "application/vnd.numacube.columnar";
    static final byte[] MAGIC = {'N', 'C', 'B', '1'};
    static final byte[] BATCHED_MAGIC = {'N', 'C', 'B', '2'};
    private static final String BATCH_ROWS = "batch-rows=";

    private static final JsonFactory JSON = new JsonFactory();

    private ResultColumnar() {}

    /** Whether an {@code Accept} header asks for this format. */
    static boolean accepted(String accept) {
        return accept != null && accept.contains(MEDIA_TYPE);
    }

    /**
     * The rows per batch an {@code Accept} header asks for ({@code ...columnar; batch-rows=B}), or 0 for the whole
     * answer as one ({@code NCB1}).
     *
     * @throws HttpError 400 when B is not a positive number
     */
    static int batchRows(String accept) {
        int at = accept == null ? -1 : accept.indexOf(BATCH_ROWS);
        if (at < 0) {
            return 0;
        }
        String value = accept.substring(at + BATCH_ROWS.length()).split("[;,\\s]", 2)[0];
        try {
            int rows = Integer.parseInt(value);
            if (rows > 0) {
                return rows;
            }
        } catch (NumberFormatException e) {
            // reported below, as a value out of range is
        }
        throw new HttpError(
                400,
                "22023",
                "batch-rows is a positive number of rows: batch-rows=" + value + " — e.g. batch-rows=65536");
    }

    /** The answer as one {@code NCB1} ({@code batchRows} 0), or in {@code NCB2} batches of {@code batchRows} rows. */
    static void write(QueryResult r, String queryId, String shard, int batchRows, OutputStream out) throws IOException {
        out.write(batchRows > 0 ? BATCHED_MAGIC : MAGIC);
        byte[] header = header(r, queryId, shard, batchRows);
        out.write(littleEndian(4).putInt(header.length).array());
        out.write(header);
        if (batchRows <= 0) {
            columns(r, 0, r.rowCount(), out);
            return;
        }
        for (int from = 0; from < r.rowCount(); from += batchRows) {
            int to = Math.min(r.rowCount(), from + batchRows);
            out.write(littleEndian(4).putInt(to - from).array());
            columns(r, from, to, out);
        }
    }

    /** Rows {@code from} (inclusive) to {@code to} of every column: null bitmap, then values. */
    private static void columns(QueryResult r, int from, int to, OutputStream out) throws IOException {
        for (int c = 0; c < r.columnCount(); c++) {
            out.write(nulls(r, c, from, to));
            out.write(values(r, c, from, to));
        }
    }

    private static byte[] header(QueryResult r, String queryId, String shard, int batchRows) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeArrayFieldStart("columns");
            for (int c = 0; c < r.columnCount(); c++) {
                g.writeStartObject();
                g.writeStringField("name", r.columnNames().get(c));
                g.writeStringField("type", SqlTypeNames.of(r, c));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("row_count", r.rowCount());
            g.writeStringField("query_id", queryId);
            g.writeObjectFieldStart("versions");
            for (var e : r.stats().versions().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            if (shard != null) {
                g.writeStringField("shard", shard);
            }
            if (batchRows > 0) {
                g.writeNumberField("batch_rows", batchRows);
            }
            g.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private static byte[] nulls(QueryResult r, int c, int from, int to) {
        byte[] bits = new byte[(to - from + 7) >>> 3];
        for (int row = from; row < to; row++) {
            if (r.isNull(row, c)) {
                bits[(row - from) >>> 3] |= (byte) (1 << ((row - from) & 7));
            }
        }
        return bits;
    }

    private static byte[] values(QueryResult r, int c, int from, int to) {
        int n = to - from;
        ColumnType type = r.columnTypes().get(c);
        return switch (type) {
            case STRING -> strings(r, c, from, to);
            case DOUBLE -> {
                ByteBuffer b = littleEndian(8 * n);
                for (int row = from; row < to; row++) {
                    b.putDouble(r.isNull(row, c) ? 0 : r.getDouble(row, c));
                }
                yield b.array();
            }
            case DATE -> {
                ByteBuffer b = littleEndian(4 * n);
                for (int row = from; row < to; row++) {
                    b.putInt(r.isNull(row, c) ? 0 : (int) r.getLong(row, c));
                }
                yield b.array();
            }
            case BOOLEAN -> {
                byte[] b = new byte[n];
                for (int row = from; row < to; row++) {
                    b[row - from] = (byte) (!r.isNull(row, c) && r.getLong(row, c) != 0 ? 1 : 0);
                }
                yield b;
            }
            case DECIMAL -> {
                ByteBuffer b = littleEndian(8 * n);
                for (int row = from; row < to; row++) {
                    b.putLong(
                            r.isNull(row, c)
                                    ? 0
                                    : r.getDecimal(row, c).unscaledValue().longValueExact());
                }
                yield b.array();
            }
            case INT, LONG, TIMESTAMP -> {
                ByteBuffer b = littleEndian(8 * n);
                for (int row = from; row < to; row++) {
                    b.putLong(r.isNull(row, c) ? 0 : r.getLong(row, c));
                }
                yield b.array();
            }
        };
    }

    private static byte[] strings(QueryResult r, int c, int from, int to) {
        ByteBuffer offsets = littleEndian(4 * (to - from + 1));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        offsets.putInt(0);
        for (int row = from; row < to; row++) {
            if (!r.isNull(row, c)) {
                text.writeBytes(r.getString(row, c).getBytes(StandardCharsets.UTF_8));
            }
            offsets.putInt(text.size());
        }
        byte[] all = new byte[offsets.capacity() + text.size()];
        System.arraycopy(offsets.array(), 0, all, 0, offsets.capacity());
        System.arraycopy(text.toByteArray(), 0, all, offsets.capacity(), text.size());
        return all;
    }

    private static ByteBuffer littleEndian(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
