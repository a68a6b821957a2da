package io.numacube.server.pgwire.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every encoder writes the bytes the boxed value's {@link TextFormat} or {@link BinaryFormat} makes, NULL as -1. */
class FieldEncoderTest {

    private static final int ROWS = 2_000;

    @Test
    void typedFieldsAreTheBoxedValuesBytesInBothFormats() {
        QueryResult r = answer(new Random(5));
        EngineRows rows = new EngineRows(r);
        for (short format = 0; format <= 1; format++) {
            for (int c = 0; c < r.columnCount(); c++) {
                FieldEncoder typed = FieldEncoder.of(rows, c, format);
                for (int row = 0; row < ROWS; row++) {
                    Recorder got = new Recorder();
                    typed.write(row, got);
                    assertArrayEquals(
                            boxed(rows, row, c, format),
                            got.bytes.toByteArray(),
                            "column " + r.columnNames().get(c) + " row " + row + " format " + format + ": "
                                    + rows.value(row, c));
                }
            }
        }
    }

    private static byte[] boxed(RowSet rows, int row, int c, short format) {
        Object v = rows.value(row, c);
        if (v == null) {
            return ByteBuffer.allocate(4).putInt(-1).array();
        }
        byte[] b = format == 1 ? BinaryFormat.encode(rows.columns().get(c).type(), v) : TextFormat.encode(v);
        return ByteBuffer.allocate(4 + b.length).putInt(b.length).put(b).array();
    }

    private static QueryResult answer(Random random) {
        long[] longs = new long[ROWS];
        long[] ints = new long[ROWS];
        double[] doubles = new double[ROWS];
        long[] dates = new long[ROWS];
        String[] strings = new String[ROWS];
        long[] decimals = new long[ROWS];
        boolean[][] nulls = new boolean[7][ROWS];
        long[] edgeLongs = {0, -1, 1, 9, 10, -10, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, 1_000_000_007L};
        double[] edgeDoubles = {
            0.0,
            -0.0,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            1e20,
            1.5e-5,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            0.1 + 0.2,
            123456789.125
        };
        String[] pool = {"", "EUR", "book-7", "Zürich", "東京", "a\u0000b", "😀 emoji", "x".repeat(300)};
        for (int i = 0; i < ROWS; i++) {
            longs[i] = i < edgeLongs.length ? edgeLongs[i] : random.nextLong() >> random.nextInt(64);
            ints[i] = random.nextInt();
            doubles[i] = i < edgeDoubles.length
                    ? edgeDoubles[i]
                    : random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
            dates[i] = random.nextInt(2_932_897 + 719_528) - 719_528;
            strings[i] = i % 5 == 0 ? new String(pool[i % pool.length]) : pool[random.nextInt(pool.length)];
            decimals[i] = random.nextLong() >> 20;
            for (boolean[] n : nulls) {
                n[i] = random.nextInt(10) == 0;
            }
        }
        return new QueryResult(
                List.of("l", "i", "d", "day", "s", "dec", "l2"),
                List.of(
                        ColumnType.LONG,
                        ColumnType.INT,
                        ColumnType.DOUBLE,
                        ColumnType.DATE,
                        ColumnType.STRING,
                        ColumnType.DECIMAL,
                        ColumnType.LONG),
                new int[] {0, 0, 0, 0, 0, 3, 0},
                new Object[] {longs, ints, doubles, dates, strings, decimals, longs.clone()},
                new boolean[][] {nulls[0], nulls[1], nulls[2], nulls[3], nulls[4], nulls[5], null},
                ROWS,
                new QueryStats(0, 0, 0, 0, 0, 0, 0, Map.of(), ""));
    }

    /** The bytes written, in order. */
    private static final class Recorder implements WireSink {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void int32(int v) {
            bytes.writeBytes(ByteBuffer.allocate(4).putInt(v).array());
        }

        @Override
        public void int64(long v) {
            bytes.writeBytes(ByteBuffer.allocate(8).putLong(v).array());
        }

        @Override
        public void bytes(byte[] b, int offset, int length) {
            bytes.write(b, offset, length);
        }
    }
}
