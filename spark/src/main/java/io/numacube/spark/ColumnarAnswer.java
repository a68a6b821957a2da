package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A shard's answer in numacube's columnar format ({@code application/vnd.numacube.columnar}, laid out in the server's
 * {@code ResultColumnar}), read as it arrives: the header (names, SQL types, row count, versions read, shard) when it
 * is opened, then one {@link Batch} at a time: the batches of an {@code NCB2} answer (asked for with {@code
 * batch-rows=B}), or an {@code NCB1} answer whole as one. Only the current batch is held, never the whole answer.
 * Not thread-safe: one task's thread reads it; {@link #close} closes the stream.
 */
final class ColumnarAnswer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] WHOLE = {'N', 'C', 'B', '1'};
    private static final byte[] BATCHED = {'N', 'C', 'B', '2'};

    /**
     * One column of a batch as sent: its null bitmap and, by type, {@code longs} (BIGINT, TIMESTAMP, DECIMAL unscaled,
     * DATE and BOOLEAN widened), {@code doubles} (DOUBLE), or {@code offsets} into {@code text} (VARCHAR, UTF-8).
     */
    record WireColumn(String type, byte[] nulls, long[] longs, double[] doubles, int[] offsets, byte[] text) {

        boolean isNull(int row) {
            return (nulls[row >>> 3] & (1 << (row & 7))) != 0;
        }
    }

    /** Consecutive rows of the answer, every column. */
    record Batch(List<String> names, int rowCount, List<WireColumn> columns) {}

    private final DataInputStream in;
    private final boolean batched;
    private final List<String> names;
    private final List<String> types;
    private final int rowCount;
    private final Map<String, Long> versions;
    private final String shard;
    private int rowsRead;
    private boolean wholeRead;

    private ColumnarAnswer(DataInputStream in, boolean batched, JsonNode header) {
        this.in = in;
        this.batched = batched;
        List<String> n = new ArrayList<>();
        List<String> t = new ArrayList<>();
        for (JsonNode c : header.get("columns")) {
            n.add(c.get("name").asText());
            t.add(c.get("type").asText());
        }
        this.names = List.copyOf(n);
        this.types = List.copyOf(t);
        this.rowCount = header.get("row_count").asInt();
        Map<String, Long> v = new HashMap<>();
        header.get("versions")
                .properties()
                .forEach(e -> v.put(e.getKey(), e.getValue().asLong()));
        this.versions = Map.copyOf(v);
        JsonNode s = header.get("shard");
        this.shard = s == null || s.isNull() ? null : s.asText();
    }

    /** Reads the magic and the header of the answer {@code body} streams; the batches are read by {@link #next}. */
    static ColumnarAnswer open(InputStream body) {
        DataInputStream in = new DataInputStream(new BufferedInputStream(body, 1 << 16));
        try {
            byte[] magic = new byte[4];
            in.readFully(magic);
            boolean batched = Arrays.equals(magic, BATCHED);
            if (!batched && !Arrays.equals(magic, WHOLE)) {
                throw new IllegalArgumentException(
                        "not numacube's columnar format: the first bytes are not NCB1 or NCB2");
            }
            byte[] header = new byte[Integer.reverseBytes(in.readInt())];
            in.readFully(header);
            try {
                return new ColumnarAnswer(in, batched, JSON.readTree(header));
            } catch (IOException e) {
                throw new IllegalArgumentException("the columnar header is not JSON: " + e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> names() {
        return names;
    }

    /** The answer's rows, over all its batches. */
    int rowCount() {
        return rowCount;
    }

    /** The version of each table the answer read. */
    Map<String, Long> versions() {
        return versions;
    }

    /** The answering server's {@code I/N}, or null for one that holds every row. */
    String shard() {
        return shard;
    }

    /**
     * The next batch, or null after the last (an {@code NCB2} answer of no rows has none, an {@code NCB1} one a batch
     * of 0 rows); checks that nothing follows the last.
     */
    Batch next() {
        try {
            if (batched ? rowsRead == rowCount : wholeRead) {
                if (in.read() >= 0) {
                    throw new IllegalArgumentException("bytes after the last batch of " + rowCount + " rows");
                }
                return null;
            }
            int n = batched ? Integer.reverseBytes(in.readInt()) : rowCount;
            if (n < (batched ? 1 : 0) || n > rowCount - rowsRead) {
                throw new IllegalArgumentException("a batch of " + n + " rows, after " + rowsRead + " of " + rowCount);
            }
            List<WireColumn> columns = new ArrayList<>();
            for (String type : types) {
                columns.add(column(type, n));
            }
            rowsRead += n;
            wholeRead = true;
            return new Batch(names, n, List.copyOf(columns));
        } catch (EOFException e) {
            throw new IllegalArgumentException(
                    "the answer ends inside a batch, after " + rowsRead + " of " + rowCount + " rows", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private WireColumn column(String type, int n) throws IOException {
        byte[] nulls = new byte[(n + 7) >>> 3];
        in.readFully(nulls);
        if (type.equals("VARCHAR")) {
            int[] offsets = new int[n + 1];
            values(4 * (n + 1)).asIntBuffer().get(offsets);
            byte[] text = new byte[offsets[n]];
            in.readFully(text);
            return new WireColumn(type, nulls, null, null, offsets, text);
        }
        if (type.equals("DOUBLE")) {
            double[] d = new double[n];
            values(8 * n).asDoubleBuffer().get(d);
            return new WireColumn(type, nulls, null, d, null, null);
        }
        long[] l = new long[n];
        switch (type) {
            case "DATE" -> {
                IntBuffer days = values(4 * n).asIntBuffer();
                for (int i = 0; i < n; i++) {
                    l[i] = days.get(i);
                }
            }
            case "BOOLEAN" -> {
                ByteBuffer b = values(n);
                for (int i = 0; i < n; i++) {
                    l[i] = b.get(i);
                }
            }
            default -> values(8 * n).asLongBuffer().get(l);
        }
        return new WireColumn(type, nulls, l, null, null, null);
    }

    /** The next {@code bytes} bytes of the answer, little-endian. */
    private ByteBuffer values(int bytes) throws IOException {
        byte[] b = new byte[bytes];
        in.readFully(b);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            // the answer was read, or its failure is the one to report
        }
    }
}
