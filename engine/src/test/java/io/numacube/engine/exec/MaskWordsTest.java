package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link MaskWords} against masks applied row by row: TPC-H Q6's three masks (a short date range, a byte discount
 * range, a byte quantity bound), with few-code masks, an int interval and a mask with no word test beside them, over
 * batches that start and end off word boundaries; which masks it applies as the active bits and the code widths
 * change; and that it declines masks passing most rows.
 */
class MaskWordsTest {

    private static final int ROWS = 9_000;

    private record Column(int[] codes, CodeWidth width, MemorySegment segment) {}

    private static Column column(Arena arena, Random r, int size, CodeWidth w) {
        int[] codes = IntStream.range(0, ROWS).map(i -> r.nextInt(size)).toArray();
        MemorySegment s = arena.allocate((long) ROWS * w.bytes());
        for (int i = 0; i < ROWS; i++) {
            switch (w) {
                case BYTE -> s.set(CodeKernels.BYTE, i, (byte) codes[i]);
                case SHORT -> s.setAtIndex(CodeKernels.SHORT, i, (short) codes[i]);
                case INT -> s.setAtIndex(CodeKernels.INT, i, codes[i]);
            }
        }
        return new Column(codes, w, s);
    }

    private static boolean[] range(int size, int lo, int hi) {
        boolean[] m = new boolean[size];
        Arrays.fill(m, lo, hi + 1, true);
        return m;
    }

    private static boolean[] codes(int size, int... passing) {
        boolean[] m = new boolean[size];
        for (int c : passing) {
            m[c] = true;
        }
        return m;
    }

    private static MorselView view(Column[] cols) {
        MorselView v = new MorselView(cols.length);
        for (int c = 0; c < cols.length; c++) {
            v.columns[c] = cols[c].segment();
            v.widths[c] = cols[c].width();
        }
        v.rows = ROWS;
        return v;
    }

    /** The rows of {@code [b, b + n)} passing every mask {@code words} applied, ascending, row by row. */
    private static int[] expected(MaskWords words, RowFilter.CodeMask[] masks, Column[] cols, int b, int n) {
        return IntStream.range(b, b + n)
                .filter(row -> IntStream.range(0, masks.length)
                        .allMatch(i -> !words.applied(i)
                                || masks[i].passes()[cols[masks[i].column()].codes()[row]]))
                .toArray();
    }

    @Test
    void selectsTheRowsPassingEveryAppliedMaskAsRowByRow() {
        Random r = new Random(6);
        try (Arena arena = Arena.ofConfined()) {
            Column[] cols = {
                column(arena, r, 2_526, CodeWidth.SHORT),
                column(arena, r, 11, CodeWidth.BYTE),
                column(arena, r, 50, CodeWidth.BYTE),
                column(arena, r, 200, CodeWidth.BYTE),
                column(arena, r, 100_000, CodeWidth.INT),
                column(arena, r, 40, CodeWidth.BYTE)
            };
            RowFilter.CodeMask[] masks = {
                RowFilter.CodeMask.of(0, range(2_526, 730, 1_094)),
                RowFilter.CodeMask.of(1, range(11, 5, 7)),
                RowFilter.CodeMask.of(2, range(50, 0, 22)),
                RowFilter.CodeMask.of(3, codes(200, 0, 130, 199)),
                RowFilter.CodeMask.of(4, range(100_000, 1_000, 90_000)),
                RowFilter.CodeMask.of(5, codes(40, 1, 3, 5, 7, 9, 11))
            };
            MaskWords words = MaskWords.of(masks);
            MorselView v = view(cols);
            int[] sel = new int[AggregationState.BATCH];
            for (long active : new long[] {0b111111, 0b000111, 0b000001, 0b001000, 0b010110, 0b101010}) {
                int chosen = words.prepare(v, active);
                int want = 0;
                for (int i = 0; i < masks.length; i++) {
                    boolean wordTest = i != 5 && (active & (1L << i)) != 0;
                    assertEquals(wordTest, words.applied(i), "mask " + i + " active " + Long.toBinaryString(active));
                    want += wordTest ? 1 : 0;
                }
                assertEquals(want, chosen);
                for (int trial = 0; trial < 100; trial++) {
                    int b = trial == 0 ? 0 : r.nextInt(ROWS);
                    int n = trial == 0
                            ? AggregationState.BATCH
                            : r.nextInt(Math.min(AggregationState.BATCH, ROWS - b) + 1);
                    int cnt = words.select(b, n, sel);
                    assertArrayEquals(
                            expected(words, masks, cols, b, n),
                            Arrays.copyOf(sel, cnt),
                            "active " + Long.toBinaryString(active) + " b=" + b + " n=" + n);
                }
            }
        }
    }

    @Test
    void appliesNoMaskWhoseWidthItsTestDoesNotServe() {
        Random r = new Random(7);
        try (Arena arena = Arena.ofConfined()) {
            Column[] cols = {column(arena, r, 256, CodeWidth.BYTE), column(arena, r, 300, CodeWidth.SHORT)};
            RowFilter.CodeMask[] masks = {
                RowFilter.CodeMask.of(0, range(256, 120, 135)), RowFilter.CodeMask.of(1, range(300, 10, 20))
            };
            MaskWords words = MaskWords.of(masks);
            assertEquals(1, words.prepare(view(cols), 0b11));
            assertEquals(false, words.applied(0), "an interval across the middle of a byte");
            assertEquals(true, words.applied(1));
        }
    }

    @Test
    void declinesMasksThatPassMostRows() {
        Random r = new Random(8);
        try (Arena arena = Arena.ofConfined()) {
            Column[] cols = {column(arena, r, 2_526, CodeWidth.SHORT), column(arena, r, 50, CodeWidth.BYTE)};
            RowFilter.CodeMask[] masks = {
                RowFilter.CodeMask.of(0, range(2_526, 0, 2_470)), RowFilter.CodeMask.of(1, range(50, 0, 20))
            };
            MaskWords words = MaskWords.of(masks);
            assertEquals(0, words.prepare(view(cols), 0b01), "about 98% of the rows pass");
            assertEquals(false, words.applied(0));
            assertEquals(1, words.prepare(view(cols), 0b10), "42% pass");
            assertEquals(2, words.prepare(view(cols), 0b11), "41% pass both");
        }
    }
}
