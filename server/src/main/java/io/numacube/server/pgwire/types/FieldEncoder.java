package io.numacube.server.pgwire.types;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.query.DateTexts;
import java.nio.charset.StandardCharsets;

/**
 * Writes one column's field of a DataRow (its int32 length, -1 for NULL, then its bytes) straight from the engine's
 * answer, for the types a large answer is made of: BIGINT, DOUBLE, DATE, BOOLEAN and text, in text or binary format.
 * The bytes are those {@link TextFormat} and {@link BinaryFormat} make of the boxed value ({@code FieldEncoderTest}
 * compares them), without boxing a value, formatting an integer through a String, or encoding a repeated string
 * anew. Other columns (DECIMAL, TIMESTAMP, rows the server makes itself) take the boxed way.
 *
 * <p>Not thread-safe: an encoder keeps a scratch buffer and a cache of a string's bytes; one per column of one answer
 * on one connection.
 */
public abstract sealed class FieldEncoder {

    /**
     * {@code -Dnumacube.pgwireTypedFields=false} sends every field the boxed way (for an A/B of the two in one run).
     */
    private static final boolean TYPED = Boolean.parseBoolean(System.getProperty("numacube.pgwireTypedFields", "true"));

    /** The column's encoder for {@code format} (0 text, 1 binary). */
    public static FieldEncoder of(RowSet rows, int column, short format) {
        if (rows instanceof RowWindow w) {
            FieldEncoder base = of(w.base(), column, format);
            return w.from() == 0 ? base : new Shifted(base, w.from());
        }
        if (TYPED && rows instanceof EngineRows engine) {
            QueryResult r = engine.result();
            PgType pg = rows.columns().get(column).type();
            ColumnType type = r.columnTypes().get(column);
            boolean binary = format == 1;
            if ((type == ColumnType.LONG || type == ColumnType.INT) && pg == PgType.INT8) {
                return binary ? new BinaryLong(r, column) : new TextLong(r, column);
            }
            if (type == ColumnType.DOUBLE && pg == PgType.FLOAT8) {
                return binary ? new BinaryDouble(r, column) : new TextDouble(r, column);
            }
            if (type == ColumnType.DATE && pg == PgType.DATE) {
                return binary ? new BinaryDate(r, column) : new TextDate(r, column);
            }
            if (type == ColumnType.STRING && pg == PgType.TEXT) {
                return new Utf8(r, column);
            }
        }
        return new Boxed(rows, column, format);
    }

    /** Writes row {@code row}'s field. */
    public abstract void write(int row, WireSink out);

    /** A field of a {@link RowWindow}: its base's field {@code from} rows further on. */
    private static final class Shifted extends FieldEncoder {
        private final FieldEncoder base;
        private final int from;

        Shifted(FieldEncoder base, int from) {
            this.base = base;
            this.from = from;
        }

        @Override
        public void write(int row, WireSink out) {
            base.write(from + row, out);
        }
    }

    /** A field of the engine's answer, NULL written here. */
    private abstract static sealed class Typed extends FieldEncoder {
        final QueryResult r;
        final int column;

        Typed(QueryResult r, int column) {
            this.r = r;
            this.column = column;
        }

        @Override
        public final void write(int row, WireSink out) {
            if (r.isNull(row, column)) {
                out.int32(-1);
            } else {
                value(row, out);
            }
        }

        abstract void value(int row, WireSink out);
    }

    private static final class BinaryLong extends Typed {
        BinaryLong(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            out.int32(8);
            out.int64(r.getLong(row, column));
        }
    }

    private static final class BinaryDouble extends Typed {
        BinaryDouble(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            out.int32(8);
            out.int64(Double.doubleToRawLongBits(r.getDouble(row, column)));
        }
    }

    private static final class BinaryDate extends Typed {
        BinaryDate(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            out.int32(4);
            out.int32((int) (r.getLong(row, column) - BinaryFormat.PG_EPOCH_DAY));
        }
    }

    /** A BIGINT's decimal digits, written from the right into a scratch buffer. */
    private static final class TextLong extends Typed {
        private static final byte[] MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
        private final byte[] digits = new byte[20];

        TextLong(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            long v = r.getLong(row, column);
            if (v == Long.MIN_VALUE) {
                out.int32(MIN.length);
                out.bytes(MIN, 0, MIN.length);
                return;
            }
            long rest = Math.abs(v);
            int at = digits.length;
            do {
                digits[--at] = (byte) ('0' + rest % 10);
                rest /= 10;
            } while (rest != 0);
            if (v < 0) {
                digits[--at] = '-';
            }
            out.int32(digits.length - at);
            out.bytes(digits, at, digits.length - at);
        }
    }

    private static final class TextDouble extends Typed {
        TextDouble(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            byte[] text = TextFormat.float8(r.getDouble(row, column)).getBytes(StandardCharsets.US_ASCII);
            out.int32(text.length);
            out.bytes(text, 0, text.length);
        }
    }

    private static final class TextDate extends Typed {
        TextDate(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            byte[] iso = DateTexts.isoUtf8(r.getLong(row, column));
            out.int32(iso.length);
            out.bytes(iso, 0, iso.length);
        }
    }

    /**
     * A string's UTF-8 bytes (text and binary alike), from a direct-mapped cache keyed by the String's identity: an
     * answer's strings come from the table's dictionary, the same instance in every row that holds the value.
     */
    private static final class Utf8 extends Typed {
        private static final int SLOTS = 1024;
        private final String[] keys = new String[SLOTS];
        private final byte[][] bytes = new byte[SLOTS][];

        Utf8(QueryResult r, int column) {
            super(r, column);
        }

        @Override
        void value(int row, WireSink out) {
            String s = r.getString(row, column);
            int slot = System.identityHashCode(s) & (SLOTS - 1);
            byte[] b;
            if (keys[slot] == s) {
                b = bytes[slot];
            } else {
                b = s.getBytes(StandardCharsets.UTF_8);
                keys[slot] = s;
                bytes[slot] = b;
            }
            out.int32(b.length);
            out.bytes(b, 0, b.length);
        }
    }

    /** Any value by its boxed form: {@link TextFormat#encode} or {@link BinaryFormat#encode}. */
    private static final class Boxed extends FieldEncoder {
        private final RowSet rows;
        private final int column;
        private final PgType type;
        private final boolean binary;

        Boxed(RowSet rows, int column, short format) {
            this.rows = rows;
            this.column = column;
            this.type = rows.columns().get(column).type();
            this.binary = format == 1;
        }

        @Override
        public void write(int row, WireSink out) {
            Object v = rows.value(row, column);
            if (v == null) {
                out.int32(-1);
                return;
            }
            byte[] b = binary ? BinaryFormat.encode(type, v) : TextFormat.encode(v);
            out.int32(b.length);
            out.bytes(b, 0, b.length);
        }
    }
}
