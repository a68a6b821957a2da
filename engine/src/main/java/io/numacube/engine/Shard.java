package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;

/**
 * Which rows one {@code numacube serve --shard I/N} process holds: those of every table with a shard key column whose
 * key hashes to {@code index}; a table without one is held whole (a dimension table, on every shard). The key may name
 * several columns, comma-separated, for tables that name one key differently ({@code l_orderkey,o_orderkey}: TPC-H's
 * lineitem and orders, so that an order and its lines are on one shard): each table's key is the first of them it
 * has.
 *
 * <p>The hash is part of the protocol (the Spark connector routes appended rows with it, and may be written in any
 * language): the FNV-1a 32-bit hash of the key's text in UTF-8, read as an unsigned number, modulo {@code count}.
 * The text of a VARCHAR is the string itself, of an INTEGER or BIGINT its decimal digits with a leading {@code -}
 * when negative. Worked example: {@code "DESK-01"} hashes to {@code 0xf5d24894}, so with 2 shards it belongs to
 * shard 0 ({@code 0xf5d24894 = 4 124 199 060}, even). NULL keys belong to shard 0. Only VARCHAR, INTEGER and BIGINT
 * columns may be shard keys.
 *
 * @param index  this process's shard, {@code 0 <= index < count}
 * @param count  the number of shards, at least 1
 * @param column the shard key column's name (matched case-insensitively), or several names, comma-separated, in the
 *               order a table's key is looked for
 */
public record Shard(int index, int count, String column) {

    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a shard is I/N with 0 <= I < N: index=" + index + " count=" + count + " — e.g. --shard 0/2");
        }
        if (column == null || column.isBlank()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a shard needs a key column: --shard-key COLUMN, or --partition-by COLUMN");
        }
        for (String name : column.split(",", -1)) {
            if (name.isBlank()) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "an empty name in the shard key columns: shard-key=" + column
                                + " — e.g. --shard-key l_orderkey,o_orderkey");
            }
        }
    }

    /** The key column names, in the order a table's key is looked for. */
    public java.util.List<String> columns() {
        return java.util.Arrays.stream(column.split(",")).map(String::strip).toList();
    }

    /** Reads {@code I/N}, as {@code --shard} takes it. */
    public static Shard parse(String spec, String column) {
        int slash = spec.indexOf('/');
        try {
            return new Shard(
                    Integer.parseInt(spec.substring(0, slash).strip()),
                    Integer.parseInt(spec.substring(slash + 1).strip()),
                    column);
        } catch (RuntimeException e) {
            if (e instanceof NumacubeException n) {
                throw n;
            }
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "--shard takes I/N: shard=" + spec + " — e.g. --shard 0/2");
        }
    }

    /** The shard, among {@code count}, that holds rows whose key reads {@code keyText} (null: shard 0). */
    public static int of(String keyText, int count) {
        if (keyText == null) {
            return 0;
        }
        int h = FNV_OFFSET;
        for (byte b : keyText.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return (int) Long.remainderUnsigned(Integer.toUnsignedLong(h), count);
    }

    /** Whether this shard holds rows whose key reads {@code keyText}. */
    public boolean owns(String keyText) {
        return of(keyText, count) == index;
    }

    /**
     * The index in {@code schema} of the table's key column (the first of {@link #columns} it has), or -1 when it has
     * none (it is held whole).
     */
    public int keyIndex(TableSchema schema) {
        for (String name : columns()) {
            for (int c = 0; c < schema.columns().size(); c++) {
                if (schema.columns().get(c).name().equalsIgnoreCase(name)) {
                    ColumnType t = schema.columns().get(c).type();
                    if (t != ColumnType.STRING && t != ColumnType.INT && t != ColumnType.LONG) {
                        throw new NumacubeException(
                                NumacubeException.Kind.INVALID_INPUT,
                                "a shard key is a VARCHAR, INTEGER or BIGINT column: table=" + schema.name()
                                        + " column=" + name + " type=" + t + " — choose another --shard-key");
                    }
                    return c;
                }
            }
        }
        return -1;
    }

    /**
     * Refuses a batch holding a row of another shard, naming the first such row (1-based) and its shard; a table
     * without the key column takes any row.
     */
    public void checkOwns(TableStaging rows) {
        int c = keyIndex(rows.schema());
        if (c < 0) {
            return;
        }
        for (int r = 0; r < rows.rows(); r++) {
            String key = keyText(rows, c, r);
            if (!owns(key)) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "a row of another shard: table=" + rows.schema().name() + " row=" + (r + 1) + " "
                                + rows.schema().columns().get(c).name() + "=" + key + " its-shard=" + of(key, count)
                                + "/" + count + " this-shard=" + this
                                + " — send it to its shard (the Spark connector routes rows so)");
            }
        }
    }

    /**
     * The rows of {@code staged} this shard holds ({@link TableStaging#retained}: dictionaries of their values only),
     * or {@code staged} itself for a table without the key column.
     */
    public TableStaging retain(TableStaging staged) {
        int c = keyIndex(staged.schema());
        return c < 0 ? staged : staged.retained(r -> owns(keyText(staged, c, r)));
    }

    private static String keyText(TableStaging rows, int column, int row) {
        if (rows.isNull(column, row)) {
            return null;
        }
        if (rows.dictionary(column) == null) {
            return Long.toString(rows.longs(column)[row]);
        }
        int code = rows.codes(column)[row];
        return rows.schema().columns().get(column).type() == ColumnType.STRING
                ? rows.dictionary(column).stringAt(code)
                : Long.toString(rows.dictionary(column).longAt(code));
    }

    /** {@code I/N}. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
