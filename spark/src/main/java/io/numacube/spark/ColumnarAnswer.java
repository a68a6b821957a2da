package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A shard's answer in numacube's columnar format ({@code application/vnd.numacube.columnar}, laid out in the
 * server's {@code ResultColumnar}): the header (names, SQL types, versions read, shard) and each column's values as
 * read from the wire, before they become Spark vectors ({@link SparkVectors}). Immutable after {@link #read}.
 *
 * @param names    the column names
 * @param types    the SQL type names ({@code BIGINT}, {@code DOUBLE}, {@code VARCHAR}, {@code DATE}, {@code
 *                 TIMESTAMP}, {@code BOOLEAN}, {@code DECIMAL(18,s)})
 * @param rowCount the number of rows
 * @param versions the version of each table the answer read
 * @param shard    the answering server's {@code I/N}, or null for one that holds every row
 * @param columns  the columns' values
 */
record ColumnarAnswer(
        List<String> names,
        List<String> types,
        int rowCount,
        Map<String, Long> versions,
        String shard,
        List<WireColumn> columns) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] MAGIC = {'N', 'C', 'B', '1'};

    /**
     * One column as sent: its null bitmap and, by type, {@code longs} (BIGINT, TIMESTAMP, DECIMAL unscaled, DATE and
     * BOOLEAN widened), {@code doubles} (DOUBLE), or {@code offsets} into {@code text} (VARCHAR, UTF-8).
     */
    record WireColumn(String type, byte[] nulls, long[] longs, double[] doubles, int[] offsets, byte[] text) {

        boolean isNull(int row) {
            return (nulls[row >>> 3] & (1 << (row & 7))) != 0;
        }
    }

    static ColumnarAnswer read(byte[] body) {
        ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        for (byte m : MAGIC) {
            if (in.get() != m) {
                throw new IllegalArgumentException("not numacube's columnar format: the first bytes are not NCB1");
            }
        }
        byte[] headerBytes = new byte[in.getInt()];
        in.get(headerBytes);
        JsonNode header;
        try {
            header = JSON.readTree(headerBytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("the columnar header is not JSON: " + e.getMessage(), e);
        }
        int n = header.get("row_count").asInt();
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<WireColumn> columns = new ArrayList<>();
        for (JsonNode c : header.get("columns")) {
            names.add(c.get("name").asText());
            types.add(c.get("type").asText());
            columns.add(column(in, c.get("type").asText(), n));
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("bytes after the last column: remaining=" + in.remaining());
        }
        Map<String, Long> versions = new HashMap<>();
        header.get("versions")
                .fields()
                .forEachRemaining(e -> versions.put(e.getKey(), e.getValue().asLong()));
        JsonNode shard = header.get("shard");
        return new ColumnarAnswer(
                List.copyOf(names),
                List.copyOf(types),
                n,
                Map.copyOf(versions),
                shard == null || shard.isNull() ? null : shard.asText(),
                List.copyOf(columns));
    }

    private static WireColumn column(ByteBuffer in, String type, int n) {
        byte[] nulls = new byte[(n + 7) >>> 3];
        in.get(nulls);
        if (type.equals("VARCHAR")) {
            int[] offsets = new int[n + 1];
            for (int i = 0; i <= n; i++) {
                offsets[i] = in.getInt();
            }
            byte[] text = new byte[offsets[n]];
            in.get(text);
            return new WireColumn(type, nulls, null, null, offsets, text);
        }
        if (type.equals("DOUBLE")) {
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = in.getDouble();
            }
            return new WireColumn(type, nulls, null, d, null, null);
        }
        long[] l = new long[n];
        for (int i = 0; i < n; i++) {
            l[i] = switch (type) {
                case "DATE" -> in.getInt();
                case "BOOLEAN" -> in.get();
                default -> in.getLong();
            };
        }
        return new WireColumn(type, nulls, l, null, null, null);
    }
}
