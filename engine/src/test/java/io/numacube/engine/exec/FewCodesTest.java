package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link FewCodes} against a row-by-row membership test: byte and short codes, one to four passing codes among them
 * the extremes (0, 255, 65535) and their neighbours, batches that start and end off word boundaries, and the cases
 * it must decline (no code or more than four pass, a byte column asked for a code above 255).
 */
class FewCodesTest {

    private static final int ROWS = 5000;

    /** The rows of {@code [b, b + n)} whose code is in {@code passing}, ascending, counted row by row. */
    private static int[] expected(int[] codes, int b, int n, int[] passing) {
        return java.util.stream.IntStream.range(b, b + n)
                .filter(r -> Arrays.stream(passing).anyMatch(c -> c == codes[r]))
                .toArray();
    }

    private static MemorySegment store(Arena arena, int[] codes, CodeWidth w) {
        MemorySegment s = arena.allocate((long) codes.length * w.bytes());
        for (int i = 0; i < codes.length; i++) {
            if (w == CodeWidth.BYTE) {
                s.set(CodeKernels.BYTE, i, (byte) codes[i]);
            } else {
                s.setAtIndex(CodeKernels.SHORT, i, (short) codes[i]);
            }
        }
        return s;
    }

    /** Codes drawn mostly from a few values (the passing ones and their neighbours), so that matches are dense. */
    private static int[] codes(Random r, int[] near, int max) {
        int[] codes = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            int c = r.nextInt(3) == 0 ? r.nextInt(max + 1) : near[r.nextInt(near.length)] + r.nextInt(5) - 2;
            codes[i] = Math.floorMod(c, max + 1);
        }
        return codes;
    }

    @Test
    void selectsTheSameRowsAsARowByRowTestForByteAndShortCodes() {
        Random r = new Random(14);
        int[][] passingSets = {{0}, {255}, {127, 128}, {3, 17, 42}, {0, 1, 254, 255}, {7}, {65535}, {0, 256, 65535}};
        try (Arena arena = Arena.ofConfined()) {
            for (CodeWidth w : new CodeWidth[] {CodeWidth.BYTE, CodeWidth.SHORT}) {
                int max = w == CodeWidth.BYTE ? 255 : 65535;
                for (int[] passing : passingSets) {
                    if (Arrays.stream(passing).max().getAsInt() > max) {
                        continue;
                    }
                    boolean[] mask = new boolean[max + 1];
                    Arrays.stream(passing).forEach(c -> mask[c] = true);
                    FewCodes few = FewCodes.of(mask);
                    assertTrue(few.serves(w), w + " " + Arrays.toString(passing));
                    assertArrayEquals(passing, few.codes());
                    int[] codes = codes(r, passing, max);
                    MemorySegment s = store(arena, codes, w);
                    for (int trial = 0; trial < 200; trial++) {
                        int b = r.nextInt(ROWS);
                        int n = r.nextInt(Math.min(AggregationState.BATCH, ROWS - b) + 1);
                        int[] sel = new int[AggregationState.BATCH];
                        int cnt = few.select(s, w, b, n, sel);
                        int[] want = expected(codes, b, n, passing);
                        assertArrayEquals(
                                want,
                                Arrays.copyOf(sel, cnt),
                                w + " passing=" + Arrays.toString(passing) + " b=" + b + " n=" + n);
                    }
                }
            }
        }
    }

    @Test
    void agreesWithTheMaskKernelOnAWholeBatch() {
        Random r = new Random(3);
        boolean[] mask = new boolean[50];
        mask[3] = mask[17] = mask[42] = true;
        int[] codes = new int[AggregationState.BATCH];
        Arrays.setAll(codes, i -> r.nextInt(50));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = store(arena, codes, CodeWidth.BYTE);
            int[] a = new int[codes.length];
            int[] b = new int[codes.length];
            int na = FewCodes.of(mask).select(s, CodeWidth.BYTE, 0, codes.length, a);
            int nb = CodeKernels.selectDense(s, CodeWidth.BYTE, 0, codes.length, mask, b);
            assertEquals(nb, na);
            assertArrayEquals(Arrays.copyOf(b, nb), Arrays.copyOf(a, na));
        }
    }

    @Test
    void declinesMasksItCannotMatch() {
        assertNull(FewCodes.of(new boolean[10]), "no code passes");
        boolean[] five = new boolean[10];
        Arrays.fill(five, 0, 5, true);
        assertNull(FewCodes.of(five), "five codes pass");
        boolean[] wide = new boolean[70_000];
        wide[66_000] = true;
        assertNull(FewCodes.of(wide), "a code above 65535");
        boolean[] aboveByte = new boolean[300];
        aboveByte[3] = aboveByte[299] = true;
        assertFalse(FewCodes.of(aboveByte).serves(CodeWidth.BYTE));
        assertTrue(FewCodes.of(aboveByte).serves(CodeWidth.SHORT));
        assertFalse(FewCodes.of(aboveByte).serves(CodeWidth.INT));
    }
}
