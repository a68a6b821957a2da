package io.numacube.engine.storage;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The codes of a BIGINT or TIMESTAMP column whose values lie in a narrow range (at most {@link #MAX_SPAN} apart and
 * at most {@link #SPAN_PER_ROW} times the row count: the keys of TPC-H and of most generated ids): its distinct
 * values found by a bitmap over the range, in order without a sort, and a row's code by one array index where a hash
 * table needs a probe. Immutable once built; read by several threads.
 */
final class DenseKeyCodes implements CodedColumnBuilder.KeyCodes {

    /** The widest range of values coded so: an int per value of the range (128 MiB at most). */
    static final long MAX_SPAN = 1L << 25;
    /** The most values of the range per row: a sparser column is coded through a hash table. */
    static final int SPAN_PER_ROW = 4;

    private final long min;
    private final int[] codeAt;
    private final long[] keys;
    private final boolean hasNull;

    private DenseKeyCodes(long min, int[] codeAt, long[] keys, boolean hasNull) {
        this.min = min;
        this.codeAt = codeAt;
        this.keys = keys;
        this.hasNull = hasNull;
    }

    /** The codes of {@code column} of {@code parts}, or null when its values are not dense (or none is non-NULL). */
    static DenseKeyCodes of(List<Partition> parts, int column) {
        List<RowPieces> pieces = RowPieces.of(parts);
        long[][] range = new long[pieces.size()][];
        IntStream.range(0, pieces.size()).parallel().forEach(i -> range[i] = minMax(parts, pieces.get(i), column));
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long rows = 0;
        boolean hasNull = false;
        for (int i = 0; i < pieces.size(); i++) {
            min = Math.min(min, range[i][0]);
            max = Math.max(max, range[i][1]);
            hasNull |= range[i][2] != 0;
        }
        for (Partition p : parts) {
            rows += p.rows();
        }
        long span = max - min + 1;
        if (min > max || span <= 0 || span > MAX_SPAN || span > SPAN_PER_ROW * rows) {
            return null;
        }
        long[] seen = new long[(int) ((span + 63) >>> 6)];
        long lo = min;
        IntStream.range(0, pieces.size()).parallel().forEach(i -> mark(parts, pieces.get(i), column, lo, seen));
        int distinct = 0;
        for (long w : seen) {
            distinct += Long.bitCount(w);
        }
        long[] keys = new long[distinct];
        int[] codeAt = new int[(int) span];
        int code = 0;
        for (int w = 0; w < seen.length; w++) {
            for (long bits = seen[w]; bits != 0; bits &= bits - 1) {
                int offset = (w << 6) + Long.numberOfTrailingZeros(bits);
                keys[code] = lo + offset;
                codeAt[offset] = code++;
            }
        }
        return new DenseKeyCodes(lo, codeAt, keys, hasNull);
    }

    /** The distinct values, ascending (a code is an index here). */
    long[] keys() {
        return keys;
    }

    boolean hasNull() {
        return hasNull;
    }

    @Override
    public int get(long key) {
        return codeAt[(int) (key - min)];
    }

    /** {min, max, 1 when a NULL is there} over the piece's non-NULL values ({MAX, MIN, .} when none). */
    private static long[] minMax(List<Partition> parts, RowPieces piece, int column) {
        Partition p = parts.get(piece.part());
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long nullSeen = 0;
        for (int r = piece.from(); r < piece.to(); r++) {
            if (nulls != null && Partition.isSet(nulls, r)) {
                nullSeen = 1;
                continue;
            }
            long v = values.getAtIndex(Partition.LONG, r);
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new long[] {min, max, nullSeen};
    }

    /** Sets the bit of each non-NULL value of the piece in {@code seen} (shared: words set with a CAS). */
    private static void mark(List<Partition> parts, RowPieces piece, int column, long min, long[] seen) {
        Partition p = parts.get(piece.part());
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        for (int r = piece.from(); r < piece.to(); r++) {
            if (nulls != null && Partition.isSet(nulls, r)) {
                continue;
            }
            long offset = values.getAtIndex(Partition.LONG, r) - min;
            int w = (int) (offset >>> 6);
            long bit = 1L << offset;
            if ((seen[w] & bit) == 0) {
                SEEN.getAndBitwiseOr(seen, w, bit);
            }
        }
    }

    private static final java.lang.invoke.VarHandle SEEN =
            java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);
}
