package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.storage.CodeWidth;
import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CodeHistogram} and {@link ScaledColumnSums} against sums computed row by row in {@link BigInteger}: values at
 * the ends of BIGINT, counts whose product leaves 64 bits, one- and two-byte codes, selections, and a row whose
 * product overflows raising 22003 as the row-by-row evaluation does.
 */
class CodeSumsTest {

    private static final int ROWS = 5000;
    private static final int GROUPS = 3;

    /** Sums the sink's 128-bit shares per group. */
    private static final class Totals implements CodeHistogram.Sink {
        final BigInteger[] sums = new BigInteger[GROUPS];

        Totals() {
            java.util.Arrays.fill(sums, BigInteger.ZERO);
        }

        @Override
        public void add(int group, long high, long low) {
            BigInteger v = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
            sums[group] = sums[group].add(v);
        }
    }

    private static long[] values(Random r, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = switch (i % 5) {
                case 0 -> Long.MAX_VALUE;
                case 1 -> Long.MIN_VALUE;
                case 2 -> -1;
                default -> r.nextLong() >> r.nextInt(64);
            };
        }
        return v;
    }

    @Test
    void histogramSumsCountTimesValueExactlyForByteAndShortCodes() {
        Random r = new Random(16);
        for (CodeWidth w : new CodeWidth[] {CodeWidth.BYTE, CodeWidth.SHORT}) {
            int codes = w == CodeWidth.BYTE ? 200 : 1000;
            long[] valueOfCode = values(r, codes);
            int[] code = new int[ROWS];
            int[] group = new int[ROWS];
            MemorySegment seg = w == CodeWidth.BYTE
                    ? MemorySegment.ofArray(new byte[ROWS])
                    : MemorySegment.ofArray(new short[ROWS]);
            for (int row = 0; row < ROWS; row++) {
                code[row] = r.nextInt(codes);
                group[row] = r.nextInt(GROUPS);
                if (w == CodeWidth.BYTE) {
                    seg.set(CodeKernels.BYTE, row, (byte) code[row]);
                } else {
                    seg.setAtIndex(CodeKernels.SHORT, row, (short) code[row]);
                }
            }
            MorselView view = new MorselView(1);
            view.columns[0] = seg;
            view.widths[0] = w;
            CodeHistogram h = CodeHistogram.of(new BatchExpression.ByCode(0, new double[codes], valueOfCode), GROUPS);
            assertNotNull(h);
            int[] sel = new int[ROWS];
            int[] g = new int[ROWS];
            int n = 0;
            for (int row = 0; row < ROWS; row += 1 + r.nextInt(3)) {
                sel[n] = row;
                g[n++] = group[row];
            }
            h.add(view, 0, n, sel, g);
            Totals got = new Totals();
            h.drainInto(got);
            h.drainInto(got);
            BigInteger[] want = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
            for (int k = 0; k < n; k++) {
                want[g[k]] = want[g[k]].add(BigInteger.valueOf(valueOfCode[code[sel[k]]]));
            }
            for (int gr = 0; gr < GROUPS; gr++) {
                assertEquals(want[gr], got.sums[gr], w + " group " + gr);
            }
        }
    }

    @Test
    void histogramRefusesTooManyCellsAndNonLookups() {
        assertNull(CodeHistogram.of(new BatchExpression.ByCode(0, new double[5000], new long[5000]), 1));
        assertNull(CodeHistogram.of(new BatchExpression.ByCode(0, new double[5]), 1));
        assertNull(CodeHistogram.of(new BatchExpression.LongColumn(0), 1));
    }

    /** Column 0 the values, columns 1 and 2 byte codes of the two factors. */
    private static MorselView view(long[] v, int[] c1, int[] c2) {
        MorselView view = new MorselView(3);
        view.columns[0] = MemorySegment.ofArray(v);
        view.widths[0] = CodeWidth.INT;
        for (int c = 1; c <= 2; c++) {
            byte[] b = new byte[v.length];
            int[] codes = c == 1 ? c1 : c2;
            for (int i = 0; i < v.length; i++) {
                b[i] = (byte) codes[i];
            }
            view.columns[c] = MemorySegment.ofArray(b);
            view.widths[c] = CodeWidth.BYTE;
        }
        return view;
    }

    private static BatchExpression product(long[] f1, long[] f2) {
        BatchExpression inner = new BatchExpression.Arith(
                '*',
                new BatchExpression.LongColumn(0),
                new BatchExpression.ByCode(1, new double[f1.length], f1),
                0,
                "v * f1");
        return new BatchExpression.Arith(
                '*', inner, new BatchExpression.ByCode(2, new double[f2.length], f2), 1, "v * f1 * f2");
    }

    @Test
    void scaledSumsEqualRowByRowProductsIncludingRowsPastTheBound() {
        Random r = new Random(6);
        long[] f1 = {95, 100, 90, 0, 1, 7};
        long[] f2 = {100, 108, 101, 3};
        long[] v = new long[ROWS];
        int[] c1 = new int[ROWS];
        int[] c2 = new int[ROWS];
        int[] g = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            c1[i] = r.nextInt(f1.length);
            c2[i] = r.nextInt(f2.length);
            g[i] = r.nextInt(GROUPS);
            long big = Long.MAX_VALUE / 10_800 - r.nextInt(1000);
            // near the bound, past it with a small factor (row by row, no overflow), and ordinary prices
            v[i] = i % 7 == 0
                    ? (i % 2 == 0 ? big : -big)
                    : i % 11 == 0 && c1[i] == 4 && c2[i] == 3 ? Long.MAX_VALUE / 4 : r.nextInt(10_495_000);
        }
        ScaledColumnSums s = ScaledColumnSums.of(product(f1, f2), GROUPS);
        assertNotNull(s);
        Totals got = new Totals();
        s.add(view(v, c1, c2), 0, ROWS, null, g, got);
        s.drainInto(got);
        BigInteger[] want = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        for (int i = 0; i < ROWS; i++) {
            BigInteger p = BigInteger.valueOf(v[i]).multiply(BigInteger.valueOf(f1[c1[i]] * f2[c2[i]]));
            want[g[i]] = want[g[i]].add(p);
        }
        for (int gr = 0; gr < GROUPS; gr++) {
            assertEquals(want[gr], got.sums[gr], "group " + gr);
        }
    }

    /** As the compiler builds it: every integer operation wrapped for readers of doubles ({@code ExactAsDouble}). */
    private static BatchExpression compiledProduct(long[] f1, long[] f2) {
        BatchExpression inner = new BatchExpression.ExactAsDouble(
                new BatchExpression.Arith(
                        '*',
                        new BatchExpression.LongColumn(0),
                        new BatchExpression.ByCode(1, new double[f1.length], f1),
                        0,
                        "v * f1"),
                2);
        return new BatchExpression.ExactAsDouble(
                new BatchExpression.Arith(
                        '*', inner, new BatchExpression.ByCode(2, new double[f2.length], f2), 1, "v * f1 * f2"),
                3);
    }

    @Test
    void scaledSumsServeTheCompiledShapeOfAnIntegerProduct() {
        long[] f1 = {95, 100, -90};
        long[] f2 = {100, 108};
        long[] v = {10_495_000, -3, 7, 0, -10_495_000};
        int[] c1 = {0, 1, 2, 2, 1};
        int[] c2 = {1, 0, 1, 0, 1};
        ScaledColumnSums s = ScaledColumnSums.of(compiledProduct(f1, f2), 1);
        assertNotNull(s);
        Totals got = new Totals();
        s.add(view(v, c1, c2), 0, v.length, null, new int[v.length], got);
        s.drainInto(got);
        BigInteger want = BigInteger.ZERO;
        for (int i = 0; i < v.length; i++) {
            want = want.add(BigInteger.valueOf(v[i] * f1[c1[i]] * f2[c2[i]]));
        }
        assertEquals(want, got.sums[0]);
    }

    @Test
    void aCellWhoseSumLeavesBigintCarriesExactly() {
        long[] f = {1, -1, 2};
        long[] v = new long[ROWS];
        int[] c1 = new int[ROWS];
        int[] g = new int[ROWS];
        Random r = new Random(9);
        BigInteger[] want = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        for (int i = 0; i < ROWS; i++) {
            v[i] = r.nextBoolean() ? Long.MAX_VALUE / 2 - r.nextInt(99) : Long.MIN_VALUE / 2 + r.nextInt(99);
            c1[i] = r.nextInt(f.length);
            g[i] = r.nextInt(GROUPS);
            want[g[i]] = want[g[i]].add(BigInteger.valueOf(v[i]).multiply(BigInteger.valueOf(f[c1[i]])));
        }
        ScaledColumnSums s = ScaledColumnSums.of(
                new BatchExpression.Arith(
                        '*', new BatchExpression.LongColumn(0), new BatchExpression.ByCode(1, new double[3], f), 0),
                GROUPS);
        Totals got = new Totals();
        int[] sel = new int[ROWS];
        int[] gs = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            sel[i] = i;
            gs[i] = g[i];
        }
        s.add(view(v, c1, new int[ROWS]), 0, ROWS, sel, gs, got);
        s.drainInto(got);
        for (int gr = 0; gr < GROUPS; gr++) {
            assertEquals(want[gr], got.sums[gr], "group " + gr);
        }
    }

    @Test
    void aRowWhoseProductLeavesBigintRaises22003() {
        long[] f1 = {100, 95};
        long[] f2 = {108};
        long[] v = {5, Long.MAX_VALUE / 50, 7};
        ScaledColumnSums s = ScaledColumnSums.of(product(f1, f2), 1);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> s.add(view(v, new int[] {0, 1, 0}, new int[3]), 0, 3, null, new int[3], new Totals()));
        assertEquals(BatchExpression.NUMERIC_OUT_OF_RANGE, e.code());
    }

    @Test
    void scaledSumsServeOnlyAColumnTimesLookups() {
        long[] f = {1, 2};
        assertNull(ScaledColumnSums.of(
                new BatchExpression.Arith(
                        '+', new BatchExpression.LongColumn(0), new BatchExpression.ByCode(1, new double[2], f), 0),
                1));
        assertNull(ScaledColumnSums.of(
                new BatchExpression.Arith('*', new BatchExpression.LongColumn(0), new BatchExpression.Constant(3L), 0),
                1));
        assertNull(ScaledColumnSums.of(
                new BatchExpression.Arith(
                        '*',
                        new BatchExpression.LongColumn(0),
                        new BatchExpression.ByCode(1, new double[2], new long[] {Long.MIN_VALUE, 1}),
                        0),
                1));
        assertNotNull(ScaledColumnSums.of(
                new BatchExpression.Arith(
                        '*', new BatchExpression.LongColumn(0), new BatchExpression.ByCode(1, new double[2], f), 0),
                1));
    }
}
