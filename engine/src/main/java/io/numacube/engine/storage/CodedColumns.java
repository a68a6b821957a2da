package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.stream.IntStream;

/**
 * Query-time dictionaries of a table's plain columns (BIGINT with more than 65,536 values, DOUBLE): the first query
 * that groups by such a column, or counts its distinct values, codes it here once, and every later query reads the
 * codes as it reads a dimension's. Loading stays fast (no dictionary is built for a column nobody groups by), sums
 * keep reading the plain values, and a grouping by a column of millions of values costs what grouping by any coded
 * column costs: the dense path where the codes fit, the hash path where they do not.
 *
 * <p>A coded column's dictionary holds the column's distinct values in ascending order ({@link Double#compare} order
 * for DOUBLE, -0.0 folded into 0.0 and every NaN into one, as DuckDB groups them), NULL last; its codes live in one
 * block per partition, placed like the partition (bound to its memory node, or interleaved as it is). Invariants:
 * built at most once per column (a failed build may be tried again); never changed afterwards; thread-safe (a column
 * is coded on the first asking thread while others wait for that column only; readers get immutable results).
 */
public final class CodedColumns implements AutoCloseable {

    /**
     * One plain column, coded.
     *
     * @param dictionary its values, ascending, NULL last when it holds a NULL
     * @param width      the code width of every partition's codes
     * @param codes      per partition (by index in the table), its rows' codes
     */
    public record Coded(Dictionary dictionary, CodeWidth width, MemorySegment[] codes) {

        /** The code of row {@code row} of partition {@code partition} (slow path: kernels read the segments). */
        public int code(int partition, long row) {
            MemorySegment s = codes[partition];
            return switch (width) {
                case BYTE -> s.get(Partition.BYTE, row) & 0xFF;
                case SHORT -> s.getAtIndex(Partition.SHORT, row) & 0xFFFF;
                case INT -> s.getAtIndex(Partition.INT, row);
            };
        }
    }

    /** Per column, its coding: done, or under way on the thread of the first query that asked. */
    private final Map<Integer, FutureTask<Coded>> built = new ConcurrentHashMap<>();

    private final List<NativeBlock> blocks = new ArrayList<>();
    private volatile boolean closed;

    /**
     * Column {@code column} of {@code table} coded, building it on first use (a pass over the column). A column
     * already coded is returned without a lock; a query that asks for one being coded waits for that one only.
     */
    public Coded of(FactTable table, int column) {
        if (closed) {
            throw new IllegalStateException("table closed");
        }
        FutureTask<Coded> task = built.get(column);
        if (task == null) {
            FutureTask<Coded> mine = new FutureTask<>(() -> build(table, column));
            task = built.putIfAbsent(column, mine);
            if (task == null) {
                task = mine;
                mine.run();
            }
        }
        try {
            return task.get();
        } catch (ExecutionException e) {
            built.remove(column, task);
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NumacubeException(NumacubeException.Kind.INTERNAL, "interrupted while a column was coded");
        }
    }

    /** Most codes over all the per-code tables kept (about 1 GiB at 16 bytes a code), least recently used dropped. */
    private static final long MEMO_MAX_TOTAL_CODES = 1L << 26;
    /** Tables over more codes than this are computed for each query, not kept. */
    private static final int MEMO_MAX_CODES = 1 << 24;

    /** A kept per-code table and the codes it covers. */
    private record Memo(Object table, long codes) {}

    private final java.util.LinkedHashMap<String, Memo> memo = new java.util.LinkedHashMap<>(16, 0.75f, true);
    private long memoCodes;

    /**
     * A table computed per code of this table's columns (an expression's value or NULL-ness per code), kept for the
     * next query that asks with the same {@code key}: the dictionaries are immutable, so the table is too. The caller
     * makes the key say everything the table depends on, and asks only for tables of this table alone (not of joined
     * tables, which may be replaced). Two queries may compute one table at once; either result is kept.
     */
    @SuppressWarnings("unchecked")
    public <T> T memo(String key, long codes, java.util.function.Supplier<T> compute) {
        if (codes > MEMO_MAX_CODES) {
            return compute.get();
        }
        synchronized (memo) {
            Memo m = memo.get(key);
            if (m != null) {
                return (T) m.table();
            }
        }
        T v = compute.get();
        synchronized (memo) {
            Memo before = memo.put(key, new Memo(v, codes));
            memoCodes += codes - (before == null ? 0 : before.codes());
            var eldest = memo.entrySet().iterator();
            while (memoCodes > MEMO_MAX_TOTAL_CODES && eldest.hasNext()) {
                memoCodes -= eldest.next().getValue().codes();
                eldest.remove();
            }
        }
        return v;
    }

    /** Whether column {@code column} is coded already. */
    public boolean isBuilt(int column) {
        FutureTask<Coded> t = built.get(column);
        return t != null && t.isDone();
    }

    /** The blocks of codes built so far (a snapshot). */
    public List<NativeBlock> blocks() {
        synchronized (blocks) {
            return List.copyOf(blocks);
        }
    }

    /** Bytes of codes built so far. */
    public long byteSize() {
        synchronized (blocks) {
            return blocks.stream().mapToLong(NativeBlock::byteSize).sum();
        }
    }

    private Coded build(FactTable table, int column) {
        ColumnType type = table.schema().column(column).type();
        if (type != ColumnType.LONG && type != ColumnType.DOUBLE) {
            throw new IllegalArgumentException(
                    "not a plain column: " + table.schema().column(column));
        }
        boolean dbl = type == ColumnType.DOUBLE;
        List<Partition> parts = table.partitions();
        long[][] distinctByPart = new long[parts.size()][];
        boolean[] nullIn = new boolean[parts.size()];
        boolean[] positiveZeroIn = new boolean[parts.size()];
        IntStream.range(0, parts.size())
                .parallel()
                .forEach(i -> distinctByPart[i] = distinctKeys(parts.get(i), column, dbl, nullIn, positiveZeroIn, i));
        long[] keys = unique(concat(distinctByPart));
        boolean hasNull = false;
        boolean positiveZero = false;
        for (int i = 0; i < parts.size(); i++) {
            hasNull |= nullIn[i];
            positiveZero |= positiveZeroIn[i];
        }
        if (keys.length + 1L > Integer.MAX_VALUE) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "too many distinct values to group by: column="
                            + table.schema().column(column).name());
        }
        Dictionary d = dbl
                ? Dictionary.ofDoubles(doubles(keys, positiveZero), hasNull)
                : Dictionary.ofLongs(ColumnType.INT, keys, hasNull);
        CodeWidth width = d.width();
        MemorySegment[] codes = new MemorySegment[parts.size()];
        NativeBlock[] made = new NativeBlock[parts.size()];
        try {
            for (int i = 0; i < parts.size(); i++) {
                Partition p = parts.get(i);
                made[i] = table.memory().allocate(Math.max(1, (long) p.rows() * width.bytes()), request(table, p));
                codes[i] = made[i].segment();
            }
            CodeOfKey codeOf = new CodeOfKey(keys);
            IntStream.range(0, parts.size())
                    .parallel()
                    .forEach(i -> writeCodes(parts.get(i), column, dbl, codeOf, d.nullCode(), width, codes[i]));
        } catch (RuntimeException | Error e) {
            for (NativeBlock b : made) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
        synchronized (blocks) {
            blocks.addAll(Arrays.asList(made));
        }
        return new Coded(d, width, codes);
    }

    /**
     * Placed as the partition was: bound to its memory node, or left to the OS; interleaved tables' codes are
     * interleaved over the nodes the partitions are homed on (their CPU nodes, which may omit a memory-only node).
     */
    private static PlacementRequest request(FactTable table, Partition p) {
        List<Integer> nodes = table.partitions().stream()
                .map(Partition::homeNode)
                .distinct()
                .sorted()
                .toList();
        return TableBuilder.request(table.placement(), p.memoryNode(), nodes);
    }

    /**
     * The sorted distinct keys of one partition's column; marks {@code nullIn[i]} when it holds a NULL and {@code
     * positiveZeroIn[i]} when it holds a DOUBLE 0.0 (not -0.0).
     */
    private static long[] distinctKeys(
            Partition p, int column, boolean dbl, boolean[] nullIn, boolean[] positiveZeroIn, int i) {
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        long[] keys = new long[p.rows()];
        int n = 0;
        for (int r = 0; r < p.rows(); r++) {
            if (nulls != null && Partition.isSet(nulls, r)) {
                nullIn[i] = true;
            } else {
                keys[n++] = key(values, r, dbl);
                positiveZeroIn[i] |= dbl && values.getAtIndex(Partition.LONG, r) == 0L;
            }
        }
        return unique(Arrays.copyOf(keys, n));
    }

    private static void writeCodes(
            Partition p, int column, boolean dbl, CodeOfKey codeOf, int nullCode, CodeWidth width, MemorySegment out) {
        MemorySegment values = p.column(column);
        MemorySegment nulls = p.nulls(column);
        for (int r = 0; r < p.rows(); r++) {
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

    private static long[] concat(long[][] parts) {
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

    /**
     * The code of every distinct key (its index in the sorted keys): open addressing with linear probing, load at
     * most 1/2, so a lookup is about one cache miss where a binary search over millions of keys is twenty. Immutable
     * after construction; read by several threads.
     */
    private static final class CodeOfKey {

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

        /** The code of a key that is one of the distinct keys. */
        int get(long k) {
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
    private static long[] unique(long[] keys) {
        Arrays.parallelSort(keys);
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (n == 0 || keys[i] != keys[n - 1]) {
                keys[n++] = keys[i];
            }
        }
        return n == keys.length ? keys : Arrays.copyOf(keys, n);
    }

    /** Frees every coded column; callers guarantee that no query reads or codes the table any more. */
    @Override
    public void close() {
        closed = true;
        synchronized (blocks) {
            for (NativeBlock b : blocks) {
                b.close();
            }
            blocks.clear();
        }
        built.clear();
        synchronized (memo) {
            memo.clear();
            memoCodes = 0;
        }
    }
}
