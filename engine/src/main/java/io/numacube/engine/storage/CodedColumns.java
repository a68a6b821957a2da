package io.numacube.engine.storage;

import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Query-time dictionaries of a table's plain columns (BIGINT with more than 65,536 values, DOUBLE, TIMESTAMP): the first query
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
 *
 * <p>The same holds for {@link Composite}s: the pairs of values of two columns that a join on a two-column key hangs
 * from ({@code lineitem}'s {@code (l_partkey, l_suppkey)} joined to {@code partsupp}), coded on first use under the
 * index {@code schema.size() + c} of this class's numbering ({@link FactTable#compositeIndex}).
 */
public final class CodedColumns implements AutoCloseable {

    /**
     * One plain column, coded.
     *
     * @param dictionary its values, ascending, NULL last when it holds a NULL
     * @param width      the code width of every partition's codes
     * @param codes      per partition (by its {@link Partition#id()}), its rows' codes
     */
    public record Coded(Dictionary dictionary, CodeWidth width, MemorySegment[] codes) {

        /** The code of row {@code row} of the partition of id {@code partition} (slow path: kernels read the segments). */
        public int code(int partition, long row) {
            MemorySegment s = codes[partition];
            return switch (width) {
                case BYTE -> s.get(Partition.BYTE, row) & 0xFF;
                case SHORT -> s.getAtIndex(Partition.SHORT, row) & 0xFFFF;
                case INT -> s.getAtIndex(Partition.INT, row);
            };
        }
    }

    /**
     * Two code columns of one table combined into one (a join on a two-column key hangs from it): {@code first} and
     * {@code second} are column slots of the table ({@link FactTable#columnSlots}: a dimension, a plain column's
     * query-time codes, or another composite, so a key of more columns nests). The composite's dictionary holds, in
     * ascending order, {@code firstCode * radix + secondCode} for every pair of codes some row holds, where {@code
     * radix} is the second column's dictionary size (at least 1); a NULL in either column is its NULL code, so a pair
     * with a NULL is a code like any other.
     *
     * @param first  the slot of the first column
     * @param second the slot of the second column
     */
    public record Composite(int first, int second) {}

    /** Per column, its coding: done, or under way on the thread of the first query that asked. */
    private final Map<Integer, FutureTask<Coded>> built = new ConcurrentHashMap<>();

    /** The composites asked for so far, in the order their indexes were given; never shrinks while open. */
    private final List<Composite> composites = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final List<NativeBlock> blocks = new ArrayList<>();
    private static final java.util.concurrent.atomic.AtomicLong IDENTITIES =
            new java.util.concurrent.atomic.AtomicLong();

    private final PerCodeMemo memo = new PerCodeMemo();
    private final String memoToken = "table#" + IDENTITIES.incrementAndGet() + ";";
    private volatile boolean closed;
    private volatile boolean temporary;

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
            int n = table.schema().size();
            FutureTask<Coded> mine = new FutureTask<>(() -> keep(
                    column < n
                            ? CodedColumnBuilder.build(table, column)
                            : CompositeCodeBuilder.build(table, composites.get(column - n))));
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

    /**
     * The number of composite {@code c} ({@code 0, 1, ...}) for the pair of slots {@code first, second}, given on first
     * use; {@code of(table, table.schema().size() + c)} codes it. Thread-safe: one pair has one number.
     */
    public synchronized int composite(int first, int second) {
        Composite wanted = new Composite(first, second);
        int at = composites.indexOf(wanted);
        if (at >= 0) {
            return at;
        }
        composites.add(wanted);
        return composites.size() - 1;
    }

    /** Composite {@code c}'s two slots. */
    public Composite composite(int c) {
        return composites.get(c);
    }

    /** How many composites have a number so far. */
    public int composites() {
        return composites.size();
    }

    private Coded keep(CodedColumnBuilder.Built built) {
        synchronized (blocks) {
            blocks.addAll(java.util.Arrays.asList(built.blocks()));
        }
        return built.coded();
    }

    /**
     * A table computed per code of this table's columns (an expression's value or NULL-ness per code), kept for the
     * next query that asks with the same {@code key}: the dictionaries are immutable, so the table is too. The caller
     * makes the key say everything the table depends on, naming each joined table it was computed through by that
     * table's {@link #memoToken} (a replaced table's are {@link #forget forgotten}). Two queries may compute one table
     * at once; either result is kept.
     */
    public <T> T memo(String key, long codes, java.util.function.Supplier<T> compute) {
        return memo.get(key, codes, compute);
    }

    /**
     * This table in the memo keys of tables that join it: unique in the process and never reused, so a table computed
     * through this table is never found again once it is replaced (see {@link #forget}).
     */
    public String memoToken() {
        return memoToken;
    }

    /** Marks the table as one query's temporary table: nothing is kept through it (see {@link #temporary()}). */
    public void markTemporary() {
        temporary = true;
    }

    /** Whether the table lives for one query only, so that tables computed through it are not worth keeping. */
    public boolean temporary() {
        return temporary;
    }

    /** Drops the kept tables whose key holds {@code token}: another table's {@link #memoToken}, now replaced. */
    public void forget(String token) {
        memo.dropMentioning(token);
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
        memo.clear();
    }
}
