package io.numacube.bench.baseline;

import io.numacube.bench.CubeUnderTest;
import io.numacube.bench.Placement;
import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.peer.TableSource;
import io.numacube.bench.report.BenchReport.EngineStats;
import io.numacube.engine.gen.Books;
import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The plain-loop baseline cube: the engine's generated trades ({@link TradesGenerator}, the same rows the engine and
 * DuckDB hold) in off-heap columns at the narrowest code widths (desk, currency, day: byte; book, counterparty: short;
 * trade_id, pnl, notional: 8 bytes), and the six reference queries answered by {@link LoopKernels} on
 * {@code threads} threads split into equal row ranges. It knows only the reference queries' SQL text. No planner, no
 * morsels, no placement ({@code placement} is ignored), no pruning: every query scans all rows.
 *
 * <p>Thread-safety: {@link #query} may run concurrently; {@link #close()} frees the columns and the threads.
 */
public final class LoopCube implements CubeUnderTest {

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    static final List<String> CURRENCIES = TradesGenerator.CURRENCIES;
    static final int DESKS = TradesGenerator.DESKS;
    static final int BOOKS = TradesGenerator.BOOKS;
    static final int DAYS = TradesGenerator.DAYS;
    static final int COUNTERPARTIES = TradesGenerator.COUNTERPARTIES;
    /** Bit d set = desk code d is one of Q3's desks. */
    /** The first business day (index) of Q6's last 30 calendar days. */
    static final int Q6_FIRST_DAY = firstDayOnOrAfter(ReferenceQueries.Q6_FIRST_DAY);

    static final long Q3_DESK_MASK = ReferenceQueries.Q3_DESKS.stream()
            .mapToLong(name -> 1L << TradesGenerator.deskNames().indexOf(name))
            .reduce(0, (a, b) -> a | b);

    private final Arena arena = Arena.ofShared();
    private final GeneratedTrades data;
    private final long rows;
    private final int threads;
    private final ExecutorService pool;
    private final MemorySegment tradeId;
    private final MemorySegment desk;
    private final MemorySegment book;
    private final MemorySegment currency;
    private final MemorySegment tradeDate;
    private final MemorySegment counterparty;
    private final MemorySegment pnl;
    private final MemorySegment notional;
    private final Map<String, ReferenceQuery> known = new java.util.HashMap<>();
    private final double loadSeconds;

    /** Generates {@code rows} trades with {@code seed}, on {@code threads} threads. */
    public LoopCube(long rows, long seed, int threads) {
        this.data = new GeneratedTrades(rows, seed);
        this.rows = rows;
        this.threads = threads;
        this.pool = Executors.newFixedThreadPool(
                threads, r -> Thread.ofPlatform().daemon().name("loop-cube").unstarted(r));
        long t0 = System.nanoTime();
        tradeId = arena.allocate(rows * 8, 64);
        desk = arena.allocate(rows, 64);
        book = arena.allocate(rows * 2, 64);
        currency = arena.allocate(rows, 64);
        tradeDate = arena.allocate(rows, 64);
        counterparty = arena.allocate(rows * 2, 64);
        pnl = arena.allocate(rows * 8, 64);
        notional = arena.allocate(rows * 8, 64);
        long chunks = (rows + LoopKernels.WINDOW - 1) / LoopKernels.WINDOW;
        parallel((int) Math.min(Integer.MAX_VALUE, chunks), c -> {
            generate(c);
            return null;
        });
        loadSeconds = (System.nanoTime() - t0) / 1e9;
        for (ReferenceQuery q : ReferenceQuery.values()) {
            known.put(q.sql(q3Literals()), q);
        }
    }

    /** A factory of loop cubes (placement is ignored: one node, no placement). */
    public static Factory factory() {
        return new Factory() {
            @Override
            public CubeUnderTest open(long rows, long seed, int threads, Placement placement) {
                return new LoopCube(rows, seed, threads);
            }

            @Override
            public int nodes() {
                return 1;
            }

            @Override
            public String description() {
                return "plain-loop baseline (bench's LoopCube, not the engine; no placement)";
            }
        };
    }

    private void generate(int chunk) {
        long from = (long) chunk * LoopKernels.WINDOW;
        long to = Math.min(rows, from + LoopKernels.WINDOW);
        TradesGenerator generator = data.generator();
        TradeRow r = new TradeRow();
        for (long i = from; i < to; i++) {
            generator.row(i, r);
            tradeId.setAtIndex(LONG, i, r.tradeId);
            desk.set(BYTE, i, (byte) r.desk);
            book.setAtIndex(SHORT, i, (short) r.book);
            currency.set(BYTE, i, (byte) r.currency);
            tradeDate.set(BYTE, i, (byte) r.day);
            counterparty.setAtIndex(SHORT, i, (short) r.counterparty);
            pnl.setAtIndex(DOUBLE, i, r.pnl);
            notional.setAtIndex(DOUBLE, i, r.notional);
        }
    }

    @Override
    public Answer query(String sql) {
        ReferenceQuery q = known.get(sql);
        if (q == null) {
            throw new IllegalArgumentException("the loop baseline answers only the reference queries: sql=" + sql);
        }
        Supplier<ResultTable> table = switch (q) {
            case Q1 -> q1();
            case Q2 -> q23(false);
            case Q3 -> q23(true);
            case Q4 -> q4();
            case Q5 -> q5();
            case Q6 -> q6();
        };
        return new Answer(
                table,
                new EngineStats(
                        rows,
                        q.bytesRead(rows, storedWidths()),
                        threads,
                        threads,
                        0,
                        0,
                        "bare loop: one row range per thread"));
    }

    private Supplier<ResultTable> q1() {
        double[] sums = new double[CURRENCIES.size()];
        for (double[] part : perThread(t -> {
            double[] s = new double[CURRENCIES.size()];
            LoopKernels.sumByByteKey(currency, pnl, from(t), from(t + 1), s);
            return s;
        })) {
            add(sums, part);
        }
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int c = 0; c < sums.length; c++) {
                out.add(List.of(CURRENCIES.get(c), sums[c]));
            }
            return new ResultTable(List.of("currency", "SUM(pnl)"), out);
        };
    }

    private Supplier<ResultTable> q23(boolean filtered) {
        int width = CURRENCIES.size();
        long mask = Q3_DESK_MASK;
        double[] sums = new double[DESKS * width];
        for (double[] part : perThread(t -> {
            double[] s = new double[DESKS * width];
            if (filtered) {
                LoopKernels.filteredSumByTwoByteKeys(
                        tradeDate, 100, 149, desk, mask, currency, width, pnl, from(t), from(t + 1), s);
            } else {
                LoopKernels.sumByTwoByteKeys(desk, currency, width, pnl, from(t), from(t + 1), s);
            }
            return s;
        })) {
            add(sums, part);
        }
        double[] usd = new double[DESKS];
        for (int d = 0; d < DESKS; d++) {
            for (int c = 0; c < width; c++) {
                usd[d] += sums[d * width + c] * TradesGenerator.rateToUsd(c);
            }
        }
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int d = 0; d < DESKS; d++) {
                if (!filtered || (mask >>> d & 1) != 0) {
                    out.add(List.of(TradesGenerator.deskName(d), usd[d]));
                }
            }
            return new ResultTable(List.of("desk", "SUM(pnl * rate_to_usd)"), out);
        };
    }

    private Supplier<ResultTable> q6() {
        int width = CURRENCIES.size();
        double[] sums = new double[BOOKS * width];
        long[] counts = new long[BOOKS * width];
        for (Object[] p : perThread(t -> {
            double[] s = new double[BOOKS * width];
            long[] n = new long[BOOKS * width];
            LoopKernels.filteredSumCountByShortAndByteKeys(
                    tradeDate, Q6_FIRST_DAY, DAYS - 1, book, currency, width, pnl, from(t), from(t + 1), s, n);
            return new Object[] {s, n};
        })) {
            add(sums, (double[]) p[0]);
            add(counts, (long[]) p[1]);
        }
        int entities = Books.LEGAL_ENTITIES.size();
        double[] usd = new double[Books.REGIONS.size() * entities];
        long[] rowsIn = new long[usd.length];
        for (int g = 0; g < sums.length; g++) {
            int b = g / width;
            int out = Books.region(b) * entities + Books.legalEntity(b);
            usd[out] += sums[g] * TradesGenerator.rateToUsd(g % width);
            rowsIn[out] += counts[g];
        }
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int g = 0; g < usd.length; g++) {
                if (rowsIn[g] > 0) {
                    out.add(List.of(Books.REGIONS.get(g / entities), Books.LEGAL_ENTITIES.get(g % entities), usd[g]));
                }
            }
            return new ResultTable(List.of("region", "legal_entity", "SUM(pnl * rate_to_usd)"), out);
        };
    }

    private Supplier<ResultTable> q4() {
        double[] sums = new double[BOOKS * DAYS];
        long[] counts = new long[BOOKS * DAYS];
        List<Object[]> parts = perThread(t -> {
            double[] s = new double[BOOKS * DAYS];
            long[] n = new long[BOOKS * DAYS];
            LoopKernels.denseSumCountByShortAndByteKeys(book, tradeDate, DAYS, pnl, from(t), from(t + 1), s, n);
            return new Object[] {s, n};
        });
        for (Object[] p : parts) {
            add(sums, (double[]) p[0]);
            add(counts, (long[]) p[1]);
        }
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int g = 0; g < sums.length; g++) {
                if (counts[g] > 0) {
                    out.add(List.of(
                            TradesGenerator.bookName(g / DAYS),
                            LocalDate.ofEpochDay(TradesGenerator.epochDay(g % DAYS)),
                            sums[g],
                            counts[g]));
                }
            }
            return new ResultTable(List.of("book", "trade_date", "SUM(pnl)", "COUNT(*)"), out);
        };
    }

    private Supplier<ResultTable> q5() {
        double[] notionals = new double[COUNTERPARTIES];
        double[] pnls = new double[COUNTERPARTIES];
        long[] counts = new long[COUNTERPARTIES];
        for (Object[] p : perThread(t -> {
            double[] a = new double[COUNTERPARTIES];
            double[] b = new double[COUNTERPARTIES];
            long[] n = new long[COUNTERPARTIES];
            LoopKernels.denseTwoSumsCountByShortKey(counterparty, notional, pnl, from(t), from(t + 1), a, b, n);
            return new Object[] {a, b, n};
        })) {
            add(notionals, (double[]) p[0]);
            add(pnls, (double[]) p[1]);
            add(counts, (long[]) p[2]);
        }
        int[] top = topByDescending(notionals, counts, 10);
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int g : top) {
                out.add(List.of(TradesGenerator.counterpartyName(g), notionals[g], pnls[g] / counts[g]));
            }
            return new ResultTable(List.of("counterparty", "SUM(notional)", "AVG(pnl)"), out);
        };
    }

    private static int firstDayOnOrAfter(String isoDate) {
        long epochDay = LocalDate.parse(isoDate).toEpochDay();
        int d = 0;
        while (d < DAYS - 1 && TradesGenerator.epochDay(d) < epochDay) {
            d++;
        }
        return d;
    }

    /** The (up to) {@code n} groups with rows and the largest {@code values}, largest first; no boxing. */
    static int[] topByDescending(double[] values, long[] counts, int n) {
        int[] top = new int[n];
        int size = 0;
        for (int g = 0; g < values.length; g++) {
            if (counts[g] == 0 || size == n && values[g] <= values[top[n - 1]]) {
                continue;
            }
            int i = size < n ? size++ : n - 1;
            while (i > 0 && values[top[i - 1]] < values[g]) {
                top[i] = top[i - 1];
                i--;
            }
            top[i] = g;
        }
        return java.util.Arrays.copyOf(top, size);
    }

    private long from(int t) {
        return t >= threads ? rows : rows / threads * t;
    }

    private <T> List<T> perThread(IntFunction<T> body) {
        return parallel(threads, body);
    }

    private <T> List<T> parallel(int tasks, IntFunction<T> body) {
        List<Future<T>> futures = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int id = t;
            futures.add(pool.submit(() -> body.apply(id)));
        }
        List<T> out = new ArrayList<>();
        try {
            for (Future<T> f : futures) {
                out.add(f.get());
            }
        } catch (Exception e) {
            throw new IllegalStateException("loop cube task failed: " + e, e);
        }
        return out;
    }

    private static void add(double[] into, double[] part) {
        for (int i = 0; i < into.length; i++) {
            into[i] += part[i];
        }
    }

    private static void add(long[] into, long[] part) {
        for (int i = 0; i < into.length; i++) {
            into[i] += part[i];
        }
    }

    @Override
    public double loadSeconds() {
        return loadSeconds;
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public Map<String, Integer> storedWidths() {
        return GeneratedTrades.NOMINAL_WIDTHS;
    }

    @Override
    public ReferenceQuery.Q3Literals q3Literals() {
        return GeneratedTrades.q3Literals();
    }

    @Override
    public TableSource trades() {
        return data.trades();
    }

    @Override
    public TableSource fx() {
        return GeneratedTrades.fx();
    }

    @Override
    public String placementSummary() {
        return "(no placement: one arena, zero-filled by the loading thread)";
    }

    @Override
    public void close() {
        pool.shutdownNow();
        arena.close();
    }
}
