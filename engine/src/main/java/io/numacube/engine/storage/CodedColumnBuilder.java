package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Codes one plain column of a table ({@link CodedColumns}): per piece of a partition ({@link RowPieces}), its sorted distinct values (in parallel);
 * then the table's distinct values, sorted, as the dictionary (NULL last; DOUBLE in {@link Double#compare} order with
 * -0.0 folded into 0.0); then per piece, each row's code, found through an open-addressing table of the distinct
 * values, into a block placed like the partition. Integers in a narrow range skip the sort and the hash table
 * ({@link DenseKeyCodes}). Stateless.
 */
final class CodedColumnBuilder {

    private CodedColumnBuilder() {}

    /** A coded column and the blocks its codes live in (the caller owns them). */
    record Built(CodedColumns.Coded coded, NativeBlock[] blocks) {}

    static Built build(FactTable table, int column) {
        ColumnType type = table.schema().column(column).type();
        if (type != ColumnType.LONG && type != ColumnType.DOUBLE && type != ColumnType.TIMESTAMP) {
            throw new IllegalArgumentException(
                    "not a plain column: " + table.schema().column(column));
        }
        boolean dbl = type == ColumnType.DOUBLE;
        List<Partition> parts = table.partitions();
        DenseKeyCodes dense = dbl ? null : DenseKeyCodes.of(parts, column);
        Distinct distinct =
                dense != null ? new Distinct(dense.keys(), dense.hasNull(), false) : distinct(parts, column, dbl);
        long[] keys = distinct.keys();
        boolean hasNull = distinct.hasNull();
        boolean positiveZero = distinct.positiveZero();
        if (keys.length + 1L > Integer.MAX_VALUE) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "too many distinct values to group by: column="
                            + table.schema().column(column).name());
        }
        Dictionary d = dbl
                ? Dictionary.ofDoubles(doubles(keys, positiveZero), hasNull)
                : Dictionary.ofLongs(type == ColumnType.TIMESTAMP ? type : ColumnType.INT, keys, hasNull);
        CodeWidth width = d.width();
        MemorySegment[] codes = new MemorySegment[table.maxPartitionId() + 1];
        NativeBlock[] made = new NativeBlock[parts.size()];
        try {
            for (int i = 0; i < parts.size(); i++) {
                Partition p = parts.get(i);
                made[i] = table.memory().allocate(Math.max(1, (long) p.rows() * width.bytes()), request(table, p));
                codes[p.id()] = made[i].segment();
            }
            KeyCodes codeOf = dense != null ? dense : new CodeOfKey(keys);
            List<RowPieces> pieces = RowPieces.of(parts);
            IntStream.range(0, pieces.size()).parallel().forEach(i -> {
                Partition p = parts.get(pieces.get(i).part());
                writeCodes(p, pieces.get(i), column, dbl, codeOf, d.nullCode(), width, codes[p.id()]);
            });
        } catch (RuntimeException | Error e) {
            for (NativeBlock b : made) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
        return new Built(new CodedColumns.Coded(d, width, codes), made);
    }

    /** A column's sorted distinct keys, whether a NULL is among its rows, and whether a DOUBLE 0.0 (not -0.0) is. */
    private record Distinct(long[] keys, boolean hasNull, boolean positiveZero) {}

    /** The distinct keys of a column by sorting each partition's, then all of them. */
    private static Distinct distinct(List<Partition> parts, int column, boolean dbl) {
        List<RowPieces> pieces = RowPieces.of(parts);
        long[][] distinctByPart = new long[pieces.size()][];
        boolean[] nullIn = new boolean[pieces.size()];
        boolean[] positiveZeroIn = new boolean[pieces.size()];
        IntStream.range(0, pieces.size())
                .parallel()
                .forEach(i -> distinctByPart[i] = distinctKeys(
                        parts.get(pieces.get(i).part()), pieces.get(i), column, dbl, nullIn, positiveZeroIn, i));
        boolean hasNull = false;
        boolean positiveZero = false;
        for (int i = 0; i < pieces.size(); i++) {
            hasNull |= nullIn[i];
            positiveZero |= positiveZeroIn[i];
        }
        return new Distinct(unique(concat(distinctByPart)), hasNull, positiveZero);
    }

    /**
     * Placed as the partition was: bound to its memory node, or left to the OS; interleaved tables' codes are
     * interleaved over the nodes the partitions are homed on (their CPU nodes, which may omit a memory-only node).
     */
    static PlacementRequest request(FactTable table, Partition p) {
        List<Integer> nodes = table.partitions().stream()
                .map(Partition::homeNode)
                .distinct()
                .sorted()
                .toList();
        return TableBuilder.request(table.placement(), p.memoryNode(), nodes);
    }

    /**
     * The sorted distinct keys of one piece of a partition's column; marks {@code nullIn[i]} when it holds a NULL and {@code
     * positiveZeroIn[i]} when it holds a DOUBLE 0.0 (not -0.0).
     */
    private static long[] distinctKeys(
            Partition p, RowPieces piece, int column, boolean dbl, boolean[] nullIn, boolean[] positiveZeroIn, int i) {
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        long[] keys = new long[piece.to() - piece.from()];
        int n = 0;
        for (int r = piece.from(); r < piece.to(); r++) {
            if (nulls != null && Partition.isSet(nulls, r)) {
                nullIn[i] = true;
            } else {
                keys[n++] = key(values, r, dbl);
                positiveZeroIn[i] |= dbl && values.getAtIndex(Partition.LONG, r) == 0L;
            }
        }
        return unique(Arrays.copyOf(keys, n));
    }

    /** Writes the code of each row of {@code piece} of partition {@code p} into the partition's block {@code out}. */
    private static void writeCodes(
            Partition p,
            RowPieces piece,
            int column,
            boolean dbl,
            KeyCodes codeOf,
            int nullCode,
            CodeWidth width,
            MemorySegment out) {
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        for (int r = piece.from(); r < piece.to(); r++) {
            int code = nulls != null && Partition.isSet(nulls, r) ? nullCode : codeOf.get(key(values, r, dbl));
            switch (width) {
                case BYTE -> out.set(Partition.BYTE, r, (byte) code);
                case SHORT -> out.setAtIndex(Partition.SHORT, r, (short) code);
                case INT -> out.setAtIndex(Partition.INT, r, code);
            }
        }
    }

    /**
     * A value as a long whose signed order is the value's order: the value itself for BIGINT; for DOUBLE its bits
     * with the magnitude flipped for negatives, after folding -0.0 into 0.0 and every NaN into one.
     */
    static long key(MemorySegment values, long r, boolean dbl) {
        if (!dbl) {
            return values.getAtIndex(Partition.LONG, r);
        }
        double v = values.getAtIndex(Partition.DOUBLE, r);
        long bits = Double.doubleToLongBits(v == 0.0 ? 0.0 : v);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** The values of sorted keys; the zero is -0.0 when no row holds 0.0 (DuckDB shows a group's first value). */
    private static double[] doubles(long[] keys, boolean positiveZero) {
        double[] out = new double[keys.length];
        for (int i = 0; i < keys.length; i++) {
            long k = keys[i];
            out[i] = Double.longBitsToDouble(k ^ ((k >> 63) & Long.MAX_VALUE));
            if (out[i] == 0.0 && !positiveZero) {
                out[i] = -0.0;
            }
        }
        return out;
    }

    static long[] concat(long[][] parts) {
        long total = 0;
        for (long[] p : parts) {
            total += p.length;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "too many distinct values to group by: " + total);
        }
        long[] all = new long[(int) total];
        int at = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    /** The code of each distinct key of a column: its index in the column's sorted distinct keys. */
    interface KeyCodes {
        /** The code of a key that is one of the distinct keys. */
        int get(long key);
    }

    /**
     * The code of every distinct key (its index in the sorted keys): open addressing with linear probing, load at
     * most 1/2, so a lookup is about one cache miss where a binary search over millions of keys is twenty. Immutable
     * after construction; read by several threads.
     */
    static final class CodeOfKey implements KeyCodes {

        private static final long EMPTY = Long.MIN_VALUE;

        private final long[] keys;
        private final int[] codes;
        private final int mask;
        private int codeOfEmpty = -1;

        CodeOfKey(long[] sorted) {
            int capacity = Integer.highestOneBit(Math.max(16, sorted.length * 2 - 1)) << 1;
            keys = new long[capacity];
            codes = new int[capacity];
            mask = capacity - 1;
            Arrays.fill(keys, EMPTY);
            for (int code = 0; code < sorted.length; code++) {
                long k = sorted[code];
                if (k == EMPTY) {
                    codeOfEmpty = code;
                    continue;
                }
                int i = slot(k);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                codes[i] = code;
            }
        }

        @Override
        public int get(long k) {
            if (k == EMPTY) {
                return codeOfEmpty;
            }
            int i = slot(k);
            while (keys[i] != k) {
                i = (i + 1) & mask;
            }
            return codes[i];
        }

        private int slot(long k) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }
    }

    /** Sorts {@code keys} in place and returns its distinct values. */
    static long[] unique(long[] keys) {
        Arrays.parallelSort(keys);
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (n == 0 || keys[i] != keys[n - 1]) {
                keys[n++] = keys[i];
            }
        }
        return n == keys.length ? keys : Arrays.copyOf(keys, n);
    }
}
