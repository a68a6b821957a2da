package io.numacube.bench.jmh;

import io.numacube.bench.baseline.LoopKernels;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The inner aggregation kernels of the reference queries, one thread, over off-heap columns shaped like the trades
 * table (byte desk, currency and trade_date codes, short book and counterparty codes, double pnl). Scores are
 * nanoseconds per row-range call; divide by {@code rows} for ns/row. {@code rows} = 1M keeps the columns in the
 * 32 MiB L3 (kernel cost alone); 16M makes them stream from memory (kernel plus bandwidth).
 *
 * <p>Each benchmark resets its own accumulators, so a call's work does not depend on earlier calls. State is per
 * thread ({@link Scope#Thread}); the columns are freed at tear-down.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class KernelBenchmarks {

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    private static final int DESKS = 50;
    private static final int CURRENCIES = 20;
    private static final int BOOKS = 1000;
    private static final int DAYS = 250;
    private static final int COUNTERPARTIES = 10_000;

    @Param({"1048576", "16777216"})
    public int rows;

    private Arena arena;
    private MemorySegment desk;
    private MemorySegment currency;
    private MemorySegment book;
    private MemorySegment tradeDate;
    private MemorySegment counterparty;
    private MemorySegment pnl;
    private final double[] currencySums = new double[CURRENCIES];
    private final double[] deskCurrencySums = new double[DESKS * CURRENCIES];
    private final double[] bookDaySums = new double[BOOKS * DAYS];
    private final long[] bookDayCounts = new long[BOOKS * DAYS];
    private final double[] cpSums = new double[COUNTERPARTIES];
    private final double[] cpSums2 = new double[COUNTERPARTIES];
    private final long[] cpCounts = new long[COUNTERPARTIES];
    private LoopKernels.HashAccumulator hash;

    @Setup(Level.Trial)
    public void generate() {
        arena = Arena.ofShared();
        desk = arena.allocate(rows, 64);
        currency = arena.allocate(rows, 64);
        book = arena.allocate(rows * 2L, 64);
        tradeDate = arena.allocate(rows, 64);
        counterparty = arena.allocate(rows * 2L, 64);
        pnl = arena.allocate(rows * 8L, 64);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < rows; i++) {
            desk.set(BYTE, i, (byte) rnd.nextInt(DESKS));
            currency.set(BYTE, i, (byte) rnd.nextInt(CURRENCIES));
            book.setAtIndex(SHORT, i, (short) rnd.nextInt(BOOKS));
            tradeDate.set(BYTE, i, (byte) rnd.nextInt(DAYS));
            counterparty.setAtIndex(SHORT, i, (short) rnd.nextInt(COUNTERPARTIES));
            pnl.setAtIndex(DOUBLE, i, rnd.nextGaussian() * 1000);
        }
        hash = new LoopKernels.HashAccumulator(BOOKS * DAYS);
    }

    @TearDown(Level.Trial)
    public void free() {
        arena.close();
    }

    /** Q1's kernel: SUM(pnl) by a byte key with 20 values (scan-sum). */
    @Benchmark
    public double scanSumByByteKey() {
        Arrays.fill(currencySums, 0);
        LoopKernels.sumByByteKey(currency, pnl, 0, rows, currencySums);
        return currencySums[0];
    }

    /** Q2's kernel: SUM(pnl) by two byte keys, 1,000 dense groups. */
    @Benchmark
    public double denseGroupByTwoByteKeys() {
        Arrays.fill(deskCurrencySums, 0);
        LoopKernels.sumByTwoByteKeys(desk, currency, CURRENCIES, pnl, 0, rows, deskCurrencySums);
        return deskCurrencySums[0];
    }

    /** Q3's kernel: the branch-free filtered scan (50 of 250 days, 3 of 50 desks). */
    @Benchmark
    public double filteredScan() {
        Arrays.fill(deskCurrencySums, 0);
        LoopKernels.filteredSumByTwoByteKeys(
                tradeDate,
                100,
                149,
                desk,
                (1L << 3) | (1L << 17) | (1L << 42),
                currency,
                CURRENCIES,
                pnl,
                0,
                rows,
                deskCurrencySums);
        return deskCurrencySums[3 * CURRENCIES];
    }

    /** Q4's kernel: SUM and COUNT by two short keys into a dense 250k-group array. */
    @Benchmark
    public double denseGroupBy250k() {
        Arrays.fill(bookDaySums, 0);
        Arrays.fill(bookDayCounts, 0);
        LoopKernels.denseSumCountByShortAndByteKeys(book, tradeDate, DAYS, pnl, 0, rows, bookDaySums, bookDayCounts);
        return bookDaySums[0];
    }

    /** Q4's group-by through an open-addressing hash table instead (what a sparse group space costs). */
    @Benchmark
    public int hashGroupBy250k() {
        hash.clear();
        LoopKernels.hashSumByShortAndByteKeys(book, tradeDate, pnl, 0, rows, hash);
        return hash.size();
    }

    /** Q5's kernel: two sums and a count by a short key with 10,000 values. */
    @Benchmark
    public double denseGroupBy10kTwoSums() {
        Arrays.fill(cpSums, 0);
        Arrays.fill(cpSums2, 0);
        Arrays.fill(cpCounts, 0);
        LoopKernels.denseTwoSumsCountByShortKey(counterparty, pnl, pnl, 0, rows, cpSums, cpSums2, cpCounts);
        return cpSums[0];
    }
}
