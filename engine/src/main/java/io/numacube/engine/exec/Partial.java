package io.numacube.engine.exec;

import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One worker task's thread-local aggregation state for one query (dense arrays indexed by group key, or a hash table
 * of keys to slots with growing arrays), its scratch vectors, and its counters. Morsels are folded in with
 * {@link #run}; partials are combined with {@link #merge} after all morsels ran. Not thread-safe: owned by one task
 * until it finishes, then read by the merging thread.
 */
final class Partial {

    static final int BATCH = 2048;

    private final CompiledQuery q;
    private final MorselView view;
    private final int[] sel;
    private final int[] gid;
    private final long[] key;
    private final double[] vals;
    private long[] longVals;
    private final boolean[] pred;
    private final NumVec.Scratch scratch;
    private final LongIntHashMap map;
    private final int fusedSums;
    private int capacity;
    long[] counts;
    final double[][] d;
    final long[][] l;

    long morsels;
    long morselsHome;
    long rowsScanned;

    Partial(CompiledQuery q) {
        this(
                q,
                new MorselView(q.fact.schema().size()),
                new int[BATCH],
                new int[BATCH],
                q.dense ? null : new long[BATCH],
                new double[BATCH],
                q.generic == null ? null : new boolean[BATCH],
                new NumVec.Scratch(q.doubleSlots, q.booleanSlots, BATCH));
    }

    /**
     * A fresh state for one block of morsels that borrows {@code scratchOwner}'s batch vectors: only one of them may
     * run at a time (the worker thread that owns both), and the scratch holds nothing between morsels.
     */
    Partial(Partial scratchOwner) {
        this(
                scratchOwner.q,
                scratchOwner.view,
                scratchOwner.sel,
                scratchOwner.gid,
                scratchOwner.key,
                scratchOwner.vals,
                scratchOwner.pred,
                scratchOwner.scratch);
    }

    private Partial(
            CompiledQuery q,
            MorselView view,
            int[] sel,
            int[] gid,
            long[] key,
            double[] vals,
            boolean[] pred,
            NumVec.Scratch scratch) {
        this.q = q;
        this.view = view;
        this.sel = sel;
        this.gid = gid;
        this.key = key;
        this.vals = vals;
        this.pred = pred;
        this.scratch = scratch;
        this.map = q.dense ? null : new LongIntHashMap(1024);
        this.fusedSums = fusedSums(q);
        this.capacity = q.dense ? (int) q.groupSpace : 1024;
        this.d = new double[q.accs.length][];
        this.l = new long[q.accs.length][];
        this.counts = new long[capacity];
        for (int i = 0; i < q.accs.length; i++) {
            allocate(i, capacity, 0);
        }
    }

    private void allocate(int i, int newCapacity, int keep) {
        CompiledQuery.AccKind k = q.accs[i].kind();
        switch (k) {
            case SUM_D, MIN_D, MAX_D -> {
                double[] a = d[i] == null ? new double[newCapacity] : Arrays.copyOf(d[i], newCapacity);
                if (k != CompiledQuery.AccKind.SUM_D) {
                    Arrays.fill(
                            a,
                            keep,
                            newCapacity,
                            k == CompiledQuery.AccKind.MIN_D ? Double.NaN : Double.NEGATIVE_INFINITY);
                }
                d[i] = a;
            }
            default -> {
                long[] a = l[i] == null ? new long[newCapacity] : Arrays.copyOf(l[i], newCapacity);
                if (k != CompiledQuery.AccKind.SUM_L) {
                    Arrays.fill(
                            a, keep, newCapacity, k == CompiledQuery.AccKind.MIN_L ? Long.MAX_VALUE : Long.MIN_VALUE);
                }
                l[i] = a;
            }
        }
    }

    private void ensureCapacity(int groups) {
        if (groups <= capacity) {
            return;
        }
        int n = Math.max(groups, capacity * 2);
        counts = Arrays.copyOf(counts, n);
        for (int i = 0; i < q.accs.length; i++) {
            allocate(i, n, capacity);
        }
        capacity = n;
    }

    /** Number of groups: the dense space, or the slots used in the hash table. */
    int groups() {
        return q.dense ? (int) q.groupSpace : map.size();
    }

    /** The group key of a group index. */
    long keyOf(int group) {
        return q.dense ? group : map.keyAt(group);
    }

    /**
     * Folds in morsel {@code m} of {@code p}, applying the masks whose bit is set in {@code activeMasks} (the others
     * pass every code in this morsel by its zone map).
     */
    void run(Partition p, int m, long activeMasks) {
        int first = m * p.morselRows();
        int rows = Math.min(p.morselRows(), p.rows() - first);
        view.set(p, first, rows, q.readColumns, q.bytesPerValue);
        morsels++;
        rowsScanned += rows;
        if (fusedSums > 0 && noMaskActive(activeMasks)) {
            runFused(rows);
            return;
        }
        int[] keyColumns = q.keyColumns;
        for (int b = 0; b < rows; b += BATCH) {
            int n = Math.min(BATCH, rows - b);
            int[] s = null;
            int cnt = n;
            for (int i = 0; i < q.maskColumns.length && cnt > 0; i++) {
                if (i < 63 && (activeMasks & (1L << i)) == 0) {
                    continue;
                }
                int col = q.maskColumns[i];
                if (s == null) {
                    cnt = Codes.selectDense(view.columns[col], view.widths[col], b, n, q.masks[i], sel);
                    s = sel;
                } else {
                    cnt = Codes.refine(view.columns[col], view.widths[col], sel, cnt, q.masks[i]);
                }
            }
            if (cnt > 0 && q.generic != null) {
                q.generic.eval(view, b, cnt, s, pred, scratch);
                int c = 0;
                if (s == null) {
                    for (int k = 0; k < cnt; k++) {
                        sel[c] = b + k;
                        c += pred[k] ? 1 : 0;
                    }
                    s = sel;
                } else {
                    for (int k = 0; k < cnt; k++) {
                        sel[c] = sel[k];
                        c += pred[k] ? 1 : 0;
                    }
                }
                cnt = c;
            }
            if (cnt == 0) {
                continue;
            }
            if (q.dense) {
                if (keyColumns.length == 0) {
                    Arrays.fill(gid, 0, cnt, 0);
                } else {
                    int c0 = keyColumns[0];
                    Codes.setKeyInt(view.columns[c0], view.widths[c0], b, cnt, s, gid);
                    for (int i = 1; i < keyColumns.length; i++) {
                        int c = keyColumns[i];
                        Codes.addKeyInt(view.columns[c], view.widths[c], b, cnt, s, (int) q.keyStrides[i], gid);
                    }
                }
            } else {
                Arrays.fill(key, 0, cnt, 0L);
                for (int i = 0; i < keyColumns.length; i++) {
                    int c = keyColumns[i];
                    Codes.addKeyLong(view.columns[c], view.widths[c], b, cnt, s, q.keyStrides[i], key);
                }
                for (int k = 0; k < cnt; k++) {
                    gid[k] = map.slotOf(key[k]);
                }
                ensureCapacity(map.size());
            }
            int from = 0;
            if (q.accs.length > 1 && bareSum(q.accs[0]) && bareSum(q.accs[1])) {
                countAndSum2(view.columns[q.accs[0].column()], d[0], view.columns[q.accs[1].column()], d[1], b, cnt, s);
                from = 2;
            } else if (q.accs.length > 0 && bareSum(q.accs[0])) {
                countAndSum(view.columns[q.accs[0].column()], d[0], b, cnt, s);
                from = 1;
            } else {
                long[] cts = counts;
                for (int k = 0; k < cnt; k++) {
                    cts[gid[k]]++;
                }
            }
            for (int i = from; i < q.accs.length; i++) {
                accumulate(q.accs[i], i, b, cnt, s);
            }
        }
    }

    /**
     * How many accumulators {@link FusedKeySums} serves for this query: 1 or 2 when it groups by one dense key, has no
     * general predicate and aggregates only one or two sums of bare double columns; 0 otherwise.
     */
    private static int fusedSums(CompiledQuery q) {
        if (!q.dense || q.keyColumns.length != 1 || q.generic != null || q.accs.length == 0 || q.accs.length > 2) {
            return 0;
        }
        for (CompiledQuery.Acc acc : q.accs) {
            if (!bareSum(acc)) {
                return 0;
            }
        }
        return q.accs.length;
    }

    /** Whether every code mask of the query passes this morsel whole (by its zone map), so every row is selected. */
    private boolean noMaskActive(long activeMasks) {
        int masks = q.maskColumns.length;
        return masks == 0 || masks < 64 && (activeMasks & (-1L >>> (64 - masks))) == 0;
    }

    private void runFused(int rows) {
        int key = q.keyColumns[0];
        MemorySegment v0 = view.columns[q.accs[0].column()];
        if (fusedSums == 1) {
            FusedKeySums.one(view.columns[key], view.widths[key], v0, 0, rows, counts, d[0]);
        } else {
            FusedKeySums.two(
                    view.columns[key],
                    view.widths[key],
                    v0,
                    view.columns[q.accs[1].column()],
                    0,
                    rows,
                    counts,
                    d[0],
                    d[1]);
        }
    }

    private static boolean bareSum(CompiledQuery.Acc acc) {
        return acc.kind() == CompiledQuery.AccKind.SUM_D && acc.column() >= 0;
    }

    /** Count the rows and sum two bare double columns in one pass. */
    private void countAndSum2(MemorySegment seg0, double[] a0, MemorySegment seg1, double[] a1, int b, int n, int[] s) {
        long[] cts = counts;
        int[] g = gid;
        if (s == null) {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a0[x] += seg0.getAtIndex(Codes.DOUBLE, b + k);
                a1[x] += seg1.getAtIndex(Codes.DOUBLE, b + k);
            }
        } else {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                int r = s[k];
                cts[x]++;
                a0[x] += seg0.getAtIndex(Codes.DOUBLE, r);
                a1[x] += seg1.getAtIndex(Codes.DOUBLE, r);
            }
        }
    }

    /** The common case fused: count the rows and sum a bare double column in one pass. */
    private void countAndSum(MemorySegment seg, double[] a, int b, int n, int[] s) {
        long[] cts = counts;
        int[] g = gid;
        if (s == null) {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a[x] += seg.getAtIndex(Codes.DOUBLE, b + k);
            }
        } else {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a[x] += seg.getAtIndex(Codes.DOUBLE, s[k]);
            }
        }
    }

    private void accumulate(CompiledQuery.Acc acc, int i, int b, int n, int[] s) {
        int[] g = gid;
        if (acc.column() >= 0) {
            MemorySegment seg = view.columns[acc.column()];
            switch (acc.kind()) {
                case SUM_D -> {
                    double[] a = d[i];
                    if (s == null) {
                        for (int k = 0; k < n; k++) {
                            a[g[k]] += seg.getAtIndex(Codes.DOUBLE, b + k);
                        }
                    } else {
                        for (int k = 0; k < n; k++) {
                            a[g[k]] += seg.getAtIndex(Codes.DOUBLE, s[k]);
                        }
                    }
                }
                case MIN_D -> {
                    double[] a = d[i];
                    for (int k = 0; k < n; k++) {
                        double v = seg.getAtIndex(Codes.DOUBLE, s == null ? b + k : s[k]);
                        a[g[k]] = minD(a[g[k]], v);
                    }
                }
                case MAX_D -> {
                    double[] a = d[i];
                    for (int k = 0; k < n; k++) {
                        double v = seg.getAtIndex(Codes.DOUBLE, s == null ? b + k : s[k]);
                        a[g[k]] = maxD(a[g[k]], v);
                    }
                }
                case SUM_L -> {
                    long[] a = l[i];
                    try {
                        for (int k = 0; k < n; k++) {
                            a[g[k]] = Math.addExact(a[g[k]], seg.getAtIndex(Codes.LONG, s == null ? b + k : s[k]));
                        }
                    } catch (ArithmeticException e) {
                        throw sumOverflow(q, acc.column());
                    }
                }
                case MIN_L -> {
                    long[] a = l[i];
                    if (acc.codes()) {
                        var w = view.widths[acc.column()];
                        for (int k = 0; k < n; k++) {
                            a[g[k]] = Math.min(a[g[k]], Codes.code(seg, w, s == null ? b + k : s[k]));
                        }
                        return;
                    }
                    for (int k = 0; k < n; k++) {
                        long v = seg.getAtIndex(Codes.LONG, s == null ? b + k : s[k]);
                        a[g[k]] = Math.min(a[g[k]], v);
                    }
                }
                case MAX_L -> {
                    long[] a = l[i];
                    if (acc.codes()) {
                        var w = view.widths[acc.column()];
                        for (int k = 0; k < n; k++) {
                            a[g[k]] = Math.max(a[g[k]], Codes.code(seg, w, s == null ? b + k : s[k]));
                        }
                        return;
                    }
                    for (int k = 0; k < n; k++) {
                        long v = seg.getAtIndex(Codes.LONG, s == null ? b + k : s[k]);
                        a[g[k]] = Math.max(a[g[k]], v);
                    }
                }
            }
            return;
        }
        if (acc.kind() == CompiledQuery.AccKind.SUM_L
                || acc.kind() == CompiledQuery.AccKind.MIN_L
                || acc.kind() == CompiledQuery.AccKind.MAX_L) {
            accumulateExact(acc, i, b, n, s);
            return;
        }
        acc.expr().eval(view, b, n, s, vals, scratch);
        double[] v = vals;
        double[] a = d[i];
        switch (acc.kind()) {
            case SUM_D -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] += v[k];
                }
            }
            case MIN_D -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = minD(a[g[k]], v[k]);
                }
            }
            case MAX_D -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = maxD(a[g[k]], v[k]);
                }
            }
            default -> throw new IllegalStateException("long accumulator over an expression: " + acc);
        }
    }

    /** A BIGINT accumulator over an integer expression: evaluated and accumulated exactly in 64 bits. */
    private void accumulateExact(CompiledQuery.Acc acc, int i, int b, int n, int[] s) {
        if (longVals == null) {
            longVals = new long[BATCH];
        }
        long[] v = longVals;
        acc.expr().evalLong(view, b, n, s, v, scratch);
        int[] g = gid;
        long[] a = l[i];
        switch (acc.kind()) {
            case SUM_L -> {
                try {
                    for (int k = 0; k < n; k++) {
                        a[g[k]] = Math.addExact(a[g[k]], v[k]);
                    }
                } catch (ArithmeticException e) {
                    throw sumOverflow(acc.text());
                }
            }
            case MIN_L -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.min(a[g[k]], v[k]);
                }
            }
            case MAX_L -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.max(a[g[k]], v[k]);
                }
            }
            default -> throw new IllegalStateException("double accumulator on the exact path: " + acc);
        }
    }

    /** The smaller double in DuckDB's order, where NaN is above every value (Math.min would prefer NaN); a NaN
     * accumulator (MIN's initial value) takes any value. */
    static double minD(double a, double v) {
        return v < a || a != a ? v : a;
    }

    /** The larger double in DuckDB's order: NaN is above every value. */
    static double maxD(double a, double v) {
        return v > a || v != v ? v : a;
    }

    /** Adds {@code other}'s groups into this partial. */
    void merge(Partial other) {
        morsels += other.morsels;
        morselsHome += other.morselsHome;
        rowsScanned += other.rowsScanned;
        int groups = other.groups();
        for (int go = 0; go < groups; go++) {
            if (other.counts[go] == 0) {
                continue;
            }
            int g;
            if (q.dense) {
                g = go;
            } else {
                g = map.slotOf(other.map.keyAt(go));
                ensureCapacity(map.size());
            }
            counts[g] += other.counts[go];
            for (int i = 0; i < q.accs.length; i++) {
                switch (q.accs[i].kind()) {
                    case SUM_D -> d[i][g] += other.d[i][go];
                    case MIN_D -> d[i][g] = minD(d[i][g], other.d[i][go]);
                    case MAX_D -> d[i][g] = maxD(d[i][g], other.d[i][go]);
                    case SUM_L -> {
                        try {
                            l[i][g] = Math.addExact(l[i][g], other.l[i][go]);
                        } catch (ArithmeticException e) {
                            throw sumOverflow(q, q.accs[i].column());
                        }
                    }
                    case MIN_L -> l[i][g] = Math.min(l[i][g], other.l[i][go]);
                    case MAX_L -> l[i][g] = Math.max(l[i][g], other.l[i][go]);
                }
            }
        }
    }

    /** A SUM over a BIGINT column that no longer fits 64 bits: an error, never a wrapped-around answer. */
    static NumacubeException sumOverflow(CompiledQuery q, int column) {
        return sumOverflow(column >= 0 ? q.fact.schema().column(column).name() : "a BIGINT expression");
    }

    /** The overflow error of a SUM over {@code name} (a column or an integer expression's text). */
    static NumacubeException sumOverflow(String name) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "SUM(" + name + ") overflows BIGINT "
                        + "(the sum leaves -9223372036854775808..9223372036854775807) — sum it as DOUBLE instead: SUM("
                        + name + " * 1.0)");
    }
}
