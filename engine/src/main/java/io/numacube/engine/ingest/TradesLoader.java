package io.numacube.engine.ingest;

import io.numacube.engine.gen.Books;
import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.KeyPartitioner;
import io.numacube.engine.storage.PartitionWriter;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates trades straight into placed partitions: each partition's filler worker computes its own rows (row ranges:
 * its range; by a dimension: the rows whose key falls in it, after a parallel counting pass), so generation runs in
 * parallel on the nodes that will read the data; pnl gets null bits when the generator makes NULLs. Also builds the
 * fx and books stagings. Stateless; thread-safe.
 */
public final class TradesLoader {

    private static final int PROGRESS_EVERY = 1 << 16;

    private TradesLoader() {}

    /** The trades dictionaries, in the generator's code order (sorted). */
    public static Dictionary[] dictionaries() {
        Dictionary[] d = new Dictionary[TradesGenerator.TRADES.size()];
        d[TradesGenerator.COL_DESK] =
                Dictionary.ofStrings(TradesGenerator.deskNames().toArray(String[]::new));
        d[TradesGenerator.COL_BOOK] =
                Dictionary.ofStrings(TradesGenerator.bookNames().toArray(String[]::new));
        d[TradesGenerator.COL_CURRENCY] = Dictionary.ofStrings(TradesGenerator.CURRENCIES.toArray(String[]::new));
        int[] days = TradesGenerator.epochDays();
        long[] longDays = new long[days.length];
        for (int i = 0; i < days.length; i++) {
            longDays[i] = days[i];
        }
        d[TradesGenerator.COL_TRADE_DATE] = Dictionary.ofLongs(ColumnType.DATE, longDays);
        d[TradesGenerator.COL_COUNTERPARTY] =
                Dictionary.ofStrings(TradesGenerator.counterpartyNames().toArray(String[]::new));
        return d;
    }

    /** The fx table's rows. */
    public static TableStaging fx() {
        TableStaging s = new TableStaging(TradesGenerator.FX);
        for (int c = 0; c < TradesGenerator.CURRENCIES.size(); c++) {
            s.setString(0, TradesGenerator.CURRENCIES.get(c));
            s.setDouble(1, TradesGenerator.rateToUsd(c));
            s.endRow();
        }
        return s;
    }

    /** The books table's rows ({@link Books}), in book order. */
    public static TableStaging books() {
        TableStaging s = new TableStaging(Books.SCHEMA);
        for (int b = 0; b < Books.rows(); b++) {
            s.setString(0, TradesGenerator.bookName(b));
            s.setString(1, TradesGenerator.deskName(Books.desk(b)));
            s.setString(2, Books.REGIONS.get(Books.region(b)));
            s.setString(3, Books.LEGAL_ENTITIES.get(Books.legalEntity(b)));
            s.setString(4, Books.traderNames().get(Books.trader(b)));
            s.endRow();
        }
        return s;
    }

    public static FactTable load(
            TradesGenerator gen,
            Partitioning partitioning,
            int partitions,
            Placement placement,
            TableBuilder.NodeLayout layout,
            int morselRows,
            ColumnMemory memory,
            WorkerPool pool,
            ProgressListener progress) {
        TableSchema schema = TradesGenerator.TRADES;
        Dictionary[] dicts = dictionaries();
        long rows = gen.rows();
        int count = partitioning.partitionCount() > 0 ? partitioning.partitionCount() : partitions;
        int key = partitionKey(partitioning, schema);
        AtomicLong done = new AtomicLong();
        boolean[] nullBits = nullBits(gen);
        if (key < 0) {
            List<TableBuilder.PartitionSpec> specs = TableBuilder.rowRanges(rows, count);
            long[] starts = TableBuilder.rowRangeStarts(specs);
            return TableBuilder.build(
                    schema,
                    dicts,
                    nullBits,
                    specs,
                    "row ranges",
                    placement,
                    layout,
                    morselRows,
                    memory,
                    pool,
                    (p, w) -> fillRange(gen, starts[p], w, done, rows, progress));
        }
        long[] perCode = countKeys(gen, key, dicts[key].size(), pool);
        KeyPartitioner.Assignment a = KeyPartitioner.assign(schema.column(key).name(), dicts[key], perCode, count);
        List<TableBuilder.PartitionSpec> specs = new ArrayList<>();
        for (int p = 0; p < a.partitions(); p++) {
            specs.add(new TableBuilder.PartitionSpec(a.labels().get(p), a.rows()[p]));
        }
        int[] partOfCode = a.partitionOfCode();
        return TableBuilder.build(
                schema,
                dicts,
                nullBits,
                specs,
                "by " + schema.column(key).name(),
                placement,
                layout,
                morselRows,
                memory,
                pool,
                (p, w) -> fillKey(gen, key, partOfCode, p, w, done, rows, progress));
    }

    /** The index of the partitioning's dimension column, or -1 for row ranges. */
    private static int partitionKey(Partitioning partitioning, TableSchema schema) {
        int key = partitioning.dimension() == null ? -1 : schema.indexOf(partitioning.dimension());
        if (partitioning.dimension() != null && key < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "partitioning names no column of the table: table=trades column=" + partitioning.dimension()
                            + " — use desk, book, currency, trade_date or counterparty");
        }
        if (key >= 0 && !schema.column(key).isDimension()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "partitioning needs a dimension column: table=trades column="
                            + schema.column(key).name() + " — use desk, book, currency, trade_date or counterparty");
        }
        return key;
    }

    /** Null bits for pnl when the generator makes NULLs; null (no column nullable) otherwise. */
    private static boolean[] nullBits(TradesGenerator gen) {
        if (gen.pnlNullFraction() == 0) {
            return null;
        }
        boolean[] nullable = new boolean[TradesGenerator.TRADES.size()];
        nullable[TradesGenerator.COL_PNL] = true;
        return nullable;
    }

    private static long[] countKeys(TradesGenerator gen, int key, int codes, WorkerPool pool) {
        int tasks = Math.max(1, pool.workerCount());
        List<CompletableFuture<long[]>> futures = new ArrayList<>();
        List<Integer> nodes = pool.nodes();
        for (int t = 0; t < tasks; t++) {
            long from = gen.rows() * t / tasks;
            long to = gen.rows() * (t + 1) / tasks;
            futures.add(pool.submit(nodes.get(t % nodes.size()), () -> {
                long[] counts = new long[codes];
                TradeRow r = new TradeRow();
                for (long i = from; i < to; i++) {
                    counts[keyOf(gen, key, i, r)]++;
                }
                return counts;
            }));
        }
        ThreadWorkerPool.awaitAll(futures);
        long[] total = new long[codes];
        for (CompletableFuture<long[]> f : futures) {
            long[] c = f.join();
            for (int i = 0; i < codes; i++) {
                total[i] += c[i];
            }
        }
        return total;
    }

    private static int keyOf(TradesGenerator gen, int key, long i, TradeRow r) {
        return switch (key) {
            case TradesGenerator.COL_DESK -> gen.deskOf(i);
            case TradesGenerator.COL_CURRENCY -> gen.currencyOf(i);
            case TradesGenerator.COL_TRADE_DATE -> gen.day(i);
            case TradesGenerator.COL_BOOK -> {
                gen.row(i, r);
                yield r.book;
            }
            default -> {
                gen.row(i, r);
                yield r.counterparty;
            }
        };
    }

    private static void fillRange(
            TradesGenerator gen,
            long start,
            PartitionWriter w,
            AtomicLong done,
            long total,
            ProgressListener progress) {
        TradeRow r = new TradeRow();
        int rows = w.rows();
        for (int j = 0; j < rows; j++) {
            gen.row(start + j, r);
            write(w, j, r);
            if ((j & (PROGRESS_EVERY - 1)) == PROGRESS_EVERY - 1) {
                progress.progress(done.addAndGet(PROGRESS_EVERY), total);
            }
        }
        progress.progress(done.addAndGet(rows & (PROGRESS_EVERY - 1)), total);
    }

    private static void fillKey(
            TradesGenerator gen,
            int key,
            int[] partOfCode,
            int p,
            PartitionWriter w,
            AtomicLong done,
            long total,
            ProgressListener progress) {
        TradeRow r = new TradeRow();
        int j = 0;
        int rows = w.rows();
        for (long i = 0; i < gen.rows() && j < rows; i++) {
            if (partOfCode[keyOf(gen, key, i, r)] == p) {
                gen.row(i, r);
                write(w, j++, r);
                if ((j & (PROGRESS_EVERY - 1)) == 0) {
                    progress.progress(done.addAndGet(PROGRESS_EVERY), total);
                }
            }
        }
        if (j != rows) {
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL,
                    "generated rows differ from the count: partition=" + p + " counted=" + rows + " generated=" + j);
        }
        progress.progress(done.addAndGet(rows & (PROGRESS_EVERY - 1)), total);
    }

    private static void write(PartitionWriter w, int j, TradeRow r) {
        w.longValue(TradesGenerator.COL_TRADE_ID, j, r.tradeId);
        w.code(TradesGenerator.COL_DESK, j, r.desk);
        w.code(TradesGenerator.COL_BOOK, j, r.book);
        w.code(TradesGenerator.COL_CURRENCY, j, r.currency);
        w.code(TradesGenerator.COL_TRADE_DATE, j, r.day);
        w.code(TradesGenerator.COL_COUNTERPARTY, j, r.counterparty);
        w.doubleValue(TradesGenerator.COL_PNL, j, r.pnl);
        if (r.pnlNull) {
            w.setNull(TradesGenerator.COL_PNL, j);
        }
        w.doubleValue(TradesGenerator.COL_NOTIONAL, j, r.notional);
    }
}
