package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a row expression is NULL. SQL arithmetic and comparisons are NULL when an operand is, so an expression of
 * columns, literals and operators is NULL in a row exactly when one of the columns it reads is: a measure whose null
 * bit is set, a dimension whose code is its dictionary's NULL code, or a lookup attribute that is NULL for the row's
 * join-key code. Immutable; shared by every worker.
 *
 * <p>Invariant: {@code bitColumns} are fact measures that may hold NULL; {@code codeColumns[i]} is a fact dimension
 * (or the join key) and {@code nullOfCode[i][code]} is true for its codes whose value makes the expression NULL. A mask
 * with no columns ({@link #isEmpty()}) never marks a row: the expression cannot be NULL.
 */
final class NullMask {

    static final NullMask NONE = new NullMask(new int[0], new int[0], new boolean[0][]);

    private final int[] bitColumns;
    private final int[] codeColumns;
    private final boolean[][] nullOfCode;

    private NullMask(int[] bitColumns, int[] codeColumns, boolean[][] nullOfCode) {
        this.bitColumns = bitColumns;
        this.codeColumns = codeColumns;
        this.nullOfCode = nullOfCode;
    }

    /**
     * The mask of {@code e}'s columns.
     *
     * @param lookup         the joined table's index, or null
     * @param factJoinColumn the fact join key (lookup attributes are NULL by its code), or -1
     */
    static NullMask of(Expr e, FactTable fact, LookupIndex lookup, int factJoinColumn) {
        if (e == null) {
            return NONE;
        }
        java.util.TreeSet<Integer> bits = new java.util.TreeSet<>();
        Map<Integer, boolean[]> codes = new TreeMap<>();
        Expr.walk(e, x -> {
            if (!(x instanceof Expr.Column c)) {
                return;
            }
            if (c.side() == Expr.Side.LOOKUP) {
                boolean[] m = codes.computeIfAbsent(factJoinColumn, k -> new boolean[lookup.rowOfCode().length]);
                for (int code = 0; code < m.length; code++) {
                    m[code] |= lookup.rowOfCode()[code] >= 0 && lookup.valueAt(c.index(), code) == null;
                }
            } else if (c.type().isDimension()) {
                Dictionary d = fact.dictionary(c.index());
                if (d.nullCode() >= 0) {
                    codes.computeIfAbsent(c.index(), k -> new boolean[d.size()])[d.nullCode()] = true;
                }
            } else if (fact.mayBeNull(c.index())) {
                bits.add(c.index());
            }
        });
        codes.values().removeIf(m -> !any(m));
        if (bits.isEmpty() && codes.isEmpty()) {
            return NONE;
        }
        return new NullMask(
                bits.stream().mapToInt(Integer::intValue).toArray(),
                codes.keySet().stream().mapToInt(Integer::intValue).toArray(),
                codes.values().toArray(boolean[][]::new));
    }

    private static boolean any(boolean[] m) {
        for (boolean b : m) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return bitColumns.length == 0 && codeColumns.length == 0;
    }

    /** The fact columns the mask reads (for the scan's column list). */
    int[] columns() {
        int[] all = java.util.Arrays.copyOf(bitColumns, bitColumns.length + codeColumns.length);
        System.arraycopy(codeColumns, 0, all, bitColumns.length, codeColumns.length);
        return all;
    }

    /** Whether a row of this morsel may be NULL (false lets kernels skip {@link #mark}). */
    boolean mayHaveNulls(MorselView v) {
        if (codeColumns.length > 0) {
            return true;
        }
        for (int c : bitColumns) {
            if (v.nulls[c] != null) {
                return true;
            }
        }
        return false;
    }

    /** {@code isNull[k]} = whether the expression is NULL at batch position k (rows {@code b + k} or {@code sel[k]}). */
    void mark(MorselView v, int b, int n, int[] sel, boolean[] isNull) {
        java.util.Arrays.fill(isNull, 0, n, false);
        for (int c : bitColumns) {
            MemorySegment bits = v.nulls[c];
            if (bits == null) {
                continue;
            }
            long first = v.first;
            for (int k = 0; k < n; k++) {
                isNull[k] |= Partition.isSet(bits, first + (sel == null ? b + k : sel[k]));
            }
        }
        for (int i = 0; i < codeColumns.length; i++) {
            int c = codeColumns[i];
            boolean[] nullCode = nullOfCode[i];
            MemorySegment seg = v.columns[c];
            var w = v.widths[c];
            for (int k = 0; k < n; k++) {
                isNull[k] |= nullCode[CodeKernels.code(seg, w, sel == null ? b + k : sel[k])];
            }
        }
    }
}
