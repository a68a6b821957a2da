package io.numacube.bench.baseline;

import io.numacube.bench.CubeUnderTest;
import io.numacube.bench.Placement;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.peer.TableSource;
import io.numacube.bench.report.BenchReport.EngineStats;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The plain-loop baseline cube: its own deterministic trades (same shape as the engine's: desk 50, book 1000,
 * currency 20, trade_date 250 business days, counterparty 10,000, pnl, notional) in off-heap columns at the
 * narrowest widths, and the five reference queries answered by {@link LoopKernels} on {@code threads} threads split
 * into equal row ranges. It knows only the reference queries' SQL text. No placement: {@code placement} is ignored.
 *
 * <p>Thread-safety: {@link #query} may run concurrently; {@link #close()} frees the columns and the threads.
 */
public final class LoopCube implements CubeUnderTest {

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    static final List<String> CURRENCIES = List.of("USD", "EUR", "JPY", "GBP", "CHF", "CAD", "AUD", "NZD", "SEK",
            "NOK", "DKK", "HKD", "SGD", "CNY", "INR", "BRL", "MXN", "ZAR", "KRW", "PLN");
    static final int DESKS = 50;
    static final int BOOKS = 1000;
    static final int DAYS = 250;
    static final int COUNTERPARTIES = 10_000;
    static final List<LocalDate> CALENDAR = calendar();
    static final double[] RATES = rates();

    private final Arena arena = Arena.ofShared();
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
        this.rows = rows;
        this.threads = threads;
        this.pool = Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon().name("loop-cube").unstarted(r));
        long t0 = System.nanoTime();
        tradeId = arena.allocate(rows * 8, 64);
        desk = arena.allocate(rows, 64);
        book = arena.allocate(rows * 2, 64);
        currency = arena.allocate(rows, 64);
        tradeDate = arena.allocate(rows * 2, 64);
        counterparty = arena.allocate(rows * 2, 64);
        pnl = arena.allocate(rows * 8, 64);
        notional = arena.allocate(rows * 8, 64);
        long chunks = (rows + LoopKernels.WINDOW - 1) / LoopKernels.WINDOW;
        parallel((int) Math.min(Integer.MAX_VALUE, chunks), c -> {
            generate(seed, c);
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

    private void generate(long seed, int chunk) {
        long from = (long) chunk * LoopKernels.WINDOW;
        long to = Math.min(rows, from + LoopKernels.WINDOW);
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + chunk);
        for (long i = from; i < to; i++) {
            tradeId.setAtIndex(LONG, i, i + 1);
            desk.set(BYTE, i, (byte) rnd.nextInt(DESKS));
            book.setAtIndex(SHORT, i, (short) rnd.nextInt(BOOKS));
            currency.set(BYTE, i, (byte) rnd.nextInt(CURRENCIES.size()));
            tradeDate.setAtIndex(SHORT, i, (short) rnd.nextInt(DAYS));
            counterparty.setAtIndex(SHORT, i, (short) rnd.nextInt(COUNTERPARTIES));
            double tail = rnd.nextDouble() < 0.01 ? 50 : 1;
            pnl.setAtIndex(DOUBLE, i, Math.round(rnd.nextGaussian() * 1000 * tail * 100) / 100.0);
            notional.setAtIndex(DOUBLE, i, Math.round((1e5 + rnd.nextDouble() * 9.9e6) * 100) / 100.0);
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
        };
        return new Answer(table, new EngineStats(rows, threads, 0, "row ranges, one per thread"));
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
        long mask = (1L << 3) | (1L << 17) | (1L << 42);
        double[] sums = new double[DESKS * width];
        for (double[] part : perThread(t -> {
            double[] s = new double[DESKS * width];
            if (filtered) {
                LoopKernels.filteredSumByTwoByteKeys(tradeDate, 100, 149, desk, mask, currency, width, pnl,
                        from(t), from(t + 1), s);
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
                usd[d] += sums[d * width + c] * RATES[c];
            }
        }
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int d = 0; d < DESKS; d++) {
                if (!filtered || (mask >>> d & 1) != 0) {
                    out.add(List.of(deskName(d), usd[d]));
                }
            }
            return new ResultTable(List.of("desk", "SUM(pnl * rate_to_usd)"), out);
        };
    }

    private Supplier<ResultTable> q4() {
        double[] sums = new double[BOOKS * DAYS];
        long[] counts = new long[BOOKS * DAYS];
        List<Object[]> parts = perThread(t -> {
            double[] s = new double[BOOKS * DAYS];
            long[] n = new long[BOOKS * DAYS];
            LoopKernels.denseSumCountByTwoShortKeys(book, tradeDate, DAYS, pnl, from(t), from(t + 1), s, n);
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
                    out.add(List.of(g / DAYS, CALENDAR.get(g % DAYS), sums[g], counts[g]));
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
        List<Integer> groups = new ArrayList<>();
        for (int g = 0; g < COUNTERPARTIES; g++) {
            if (counts[g] > 0) {
                groups.add(g);
            }
        }
        groups.sort(Comparator.comparingDouble((Integer g) -> notionals[g]).reversed());
        List<Integer> top = List.copyOf(groups.subList(0, Math.min(10, groups.size())));
        return () -> {
            List<List<Object>> out = new ArrayList<>();
            for (int g : top) {
                out.add(List.of(g, notionals[g], pnls[g] / counts[g]));
            }
            return new ResultTable(List.of("counterparty", "SUM(notional)", "AVG(pnl)"), out);
        };
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

    static List<String> deskNames() {
        return java.util.stream.IntStream.range(0, DESKS).mapToObj(LoopCube::deskName).toList();
    }

    static String deskName(int d) {
        return String.format("DESK-%02d", d);
    }

    private static List<LocalDate> calendar() {
        List<LocalDate> days = new ArrayList<>();
        for (LocalDate d = LocalDate.of(2024, 1, 1); days.size() < DAYS; d = d.plusDays(1)) {
            if (d.getDayOfWeek() != DayOfWeek.SATURDAY && d.getDayOfWeek() != DayOfWeek.SUNDAY) {
                days.add(d);
            }
        }
        return List.copyOf(days);
    }

    private static double[] rates() {
        double[] r = new double[CURRENCIES.size()];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < r.length; i++) {
            r[i] = i == 0 ? 1.0 : Math.round((0.005 + rnd.nextDouble() * 1.5) * 1e6) / 1e6;
        }
        return r;
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
        return Map.of("trade_id", 8, "desk", 1, "book", 2, "currency", 1, "trade_date", 2, "counterparty", 2,
                "pnl", 8, "notional", 8);
    }

    @Override
    public ReferenceQuery.Q3Literals q3Literals() {
        return new ReferenceQuery.Q3Literals(CALENDAR.get(100), CALENDAR.get(149),
                List.of(deskName(3), deskName(17), deskName(42)));
    }

    @Override
    public TableSource trades() {
        return new TableSource() {
            @Override
            public String tableName() {
                return "trades";
            }

            @Override
            public List<Column> columns() {
                return List.of(new Column("trade_id", SqlType.BIGINT),
                        new Column("desk", SqlType.CODED_VARCHAR, deskNames()),
                        new Column("book", SqlType.INTEGER),
                        new Column("currency", SqlType.CODED_VARCHAR, CURRENCIES),
                        new Column("trade_date", SqlType.DATE), new Column("counterparty", SqlType.INTEGER),
                        new Column("pnl", SqlType.DOUBLE), new Column("notional", SqlType.DOUBLE));
            }

            @Override
            public long rowCount() {
                return rows;
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                int[] epochDays = CALENDAR.stream().mapToInt(d -> (int) d.toEpochDay()).toArray();
                for (long i = fromRow; i < toRow; i++) {
                    sink.beginRow();
                    sink.appendLong(tradeId.getAtIndex(LONG, i));
                    sink.appendCode(desk.get(BYTE, i));
                    sink.appendInt(book.getAtIndex(SHORT, i));
                    sink.appendCode(currency.get(BYTE, i));
                    sink.appendEpochDay(epochDays[tradeDate.getAtIndex(SHORT, i)]);
                    sink.appendInt(counterparty.getAtIndex(SHORT, i));
                    sink.appendDouble(pnl.getAtIndex(DOUBLE, i));
                    sink.appendDouble(notional.getAtIndex(DOUBLE, i));
                    sink.endRow();
                }
            }
        };
    }

    @Override
    public TableSource fx() {
        return new TableSource() {
            @Override
            public String tableName() {
                return "fx";
            }

            @Override
            public List<Column> columns() {
                return List.of(new Column("currency", SqlType.VARCHAR), new Column("rate_to_usd", SqlType.DOUBLE));
            }

            @Override
            public long rowCount() {
                return CURRENCIES.size();
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                for (int c = (int) fromRow; c < toRow; c++) {
                    sink.beginRow();
                    sink.appendString(CURRENCIES.get(c));
                    sink.appendDouble(RATES[c]);
                    sink.endRow();
                }
            }
        };
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
