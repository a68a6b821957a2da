package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.InValues;
import io.numacube.engine.storage.Dictionary;
import java.util.Arrays;

/**
 * The per-code mask of a condition over one fact column that reads it only through {@code col IN keys}, one key set
 * ({@link InValues#ofKeys}): such a condition's value on a code depends only on whether the code's value is a key, is
 * not, or is NULL, so it is evaluated three times, not once per code, and the keys are found among the codes in time
 * of the keys ({@link Dictionary#codesOfAscending}) where the dictionary is searchable (or by a bitmap of the keys that
 * each code in their range tests, {@link KeyBitmapMasks}, where the keys are dense among the codes), by ranges of the keys on the
 * query's workers where there are {@value #PARALLEL_KEYS} or more, else each code's value tested. TPC-H Q4's order
 * keys with a late line, over 1.5M codes of {@code o_orderkey}. Stateless.
 */
final class KeySetMasks {

    private KeySetMasks() {}

    /**
     * The mask of {@code e} over the codes of {@code d}, those of column slot {@code col}, or null where it is not of
     * that form; {@code slotOf} gives the slot whose codes a fact column is read by (-1 for a joined column).
     */
    static boolean[] mask(
            Expr e,
            int col,
            Dictionary d,
            java.util.function.ToIntFunction<Expr.Column> slotOf,
            io.numacube.engine.workers.WorkerPool pool) {
        InValues keys = onlyKeySet(e, col, slotOf);
        if (keys == null
                || d.type() == io.numacube.engine.schema.ColumnType.STRING
                || d.type() == io.numacube.engine.schema.ColumnType.DOUBLE) {
            return null;
        }
        long[] k = keys.keys();
        Long absent = absentValue(k);
        if (k.length == 0 || absent == null) {
            return null;
        }
        boolean member = passes(e, k[0]);
        boolean other = passes(e, absent);
        boolean[] m = new boolean[Math.max(d.size(), 1)];
        if (other) {
            Arrays.fill(m, 0, d.size(), true);
        }
        if (member != other) {
            setMembers(m, d, keys, member, pool);
        }
        if (d.nullCode() >= 0) {
            m[d.nullCode()] = passes(e, null);
        }
        return m;
    }

    /** The keys from which a searchable dictionary's codes of them are found by ranges on the workers. */
    static final int PARALLEL_KEYS = 2 * WorkerChunks.MIN_ITEMS;

    /** The system property that, {@code false}, finds the keys' codes on the planning thread (an A/B of one process). */
    static final String PARALLEL_PROPERTY = "numacube.parallelKeySet";

    private static void setMembers(
            boolean[] m, Dictionary d, InValues keys, boolean member, io.numacube.engine.workers.WorkerPool pool) {
        if (d.searchable() && KeyBitmapMasks.set(m, d, keys.keys(), member, pool)) {
            return;
        }
        if (d.searchable() && byRanges(keys.keys().length, pool)) {
            long[] k = keys.keys();
            // each range sets the codes of its own keys, which no other range has (the keys are distinct)
            WorkerChunks.map(pool, k.length, (from, to) -> {
                int[] codes = new int[to - from];
                d.codesOfAscending(k, from, to, codes);
                for (int code : codes) {
                    if (code >= 0) {
                        m[code] = member;
                    }
                }
                return null;
            });
            return;
        }
        if (d.searchable()) {
            long[] k = keys.keys();
            int[] codes = new int[k.length];
            d.codesOfAscending(k, k.length, codes);
            for (int code : codes) {
                if (code >= 0) {
                    m[code] = member;
                }
            }
            return;
        }
        for (int code = 0; code < d.size(); code++) {
            if (!d.isNull(code) && keys.containsLong(d.longValue(code))) {
                m[code] = member;
            }
        }
    }

    private static boolean byRanges(int keys, io.numacube.engine.workers.WorkerPool pool) {
        return pool != null
                && keys >= PARALLEL_KEYS
                && pool.workerCount() >= 2
                && !"false".equals(System.getProperty(PARALLEL_PROPERTY));
    }

    /** Whether {@code e} is TRUE where the column's value is {@code value} (null: NULL). */
    private static boolean passes(Expr e, Long value) {
        return Boolean.TRUE.equals(ScalarEvaluator.eval(e, x -> value));
    }

    /** A value that is not a key: one below the least key, or one above the greatest. */
    private static Long absentValue(long[] k) {
        if (k.length == 0) {
            return null;
        }
        if (k[0] != Long.MIN_VALUE) {
            return k[0] - 1;
        }
        return k[k.length - 1] != Long.MAX_VALUE ? k[k.length - 1] + 1 : null;
    }

    /**
     * The one key set {@code e} tests, where every column {@code e} reads is fact column {@code col} as the operand
     * of an IN of that set, and nothing else reads it; else null.
     */
    private static InValues onlyKeySet(Expr e, int col, java.util.function.ToIntFunction<Expr.Column> slotOf) {
        InValues[] set = {null};
        boolean[] ok = {true};
        int[] columnsInKeySets = {0};
        int[] columns = {0};
        Expr.walk(e, x -> {
            if (x instanceof Expr.In in && in.set().isKeySet()) {
                boolean column = in.operand() instanceof Expr.Column c && slotOf.applyAsInt(c) == col;
                ok[0] &= column && (set[0] == null || set[0] == in.set());
                set[0] = in.set();
                columnsInKeySets[0]++;
            } else if (x instanceof Expr.Column) {
                columns[0]++;
            }
        });
        // each IN's operand is walked as a column too
        return ok[0] && set[0] != null && columns[0] == columnsInKeySets[0] ? set[0] : null;
    }
}
