package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CodeInterval} against a row-by-row lookup of the mask it was made from: byte, short and int codes, intervals
 * at the ends of each lane's range and of each half (0, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF), single codes, whole
 * dictionaries, small dictionaries (the test that skips clearing top bits) and large ones, codes drawn near the
 * interval's ends so that every word holds codes just inside and just outside; and the masks it declines.
 */
class CodeIntervalTest {

    private static final int ROWS = 64 * 80;

    private static MemorySegment store(Arena arena, int[] codes, CodeWidth w) {
        MemorySegment s = arena.allocate((long) codes.length * w.bytes());
        for (int i = 0; i < codes.length; i++) {
            switch (w) {
                case BYTE -> s.set(CodeKernels.BYTE, i, (byte) codes[i]);
                case SHORT -> s.setAtIndex(CodeKernels.SHORT, i, (short) codes[i]);
                case INT -> s.setAtIndex(CodeKernels.INT, i, codes[i]);
            }
        }
        return s;
    }

    private static boolean[] mask(int size, int lo, int hi) {
        boolean[] m = new boolean[size];
        java.util.Arrays.fill(m, lo, hi + 1, true);
        return m;
    }

    /** Codes below {@code size}, half of them within two of {@code lo} or {@code hi}. */
    private static int[] codes(Random r, int size, int lo, int hi) {
        int[] codes = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            int near = (r.nextBoolean() ? lo : hi) + r.nextInt(5) - 2;
            codes[i] = r.nextBoolean() ? r.nextInt(size) : Math.floorMod(near, size);
        }
        return codes;
    }

    private static void check(Arena arena, Random r, CodeWidth w, int size, int lo, int hi) {
        boolean[] m = mask(size, lo, hi);
        CodeInterval in = CodeInterval.of(m);
        assertNotNull(in, w + " [" + lo + ", " + hi + "] of " + size);
        assertEquals(lo, in.lo());
        assertEquals(hi, in.hi());
        assertTrue(in.serves(w), w + " [" + lo + ", " + hi + "]");
        int[] codes = codes(r, size, lo, hi);
        MemorySegment s = store(arena, codes, w);
        for (int row = 0; row + 64 <= ROWS; row += 64) {
            long want = 0;
            for (int i = 0; i < 64; i++) {
                want |= (m[codes[row + i]] ? 1L : 0L) << i;
            }
            assertEquals(want, in.word(s, w, row), w + " [" + lo + ", " + hi + "] of " + size + " at row " + row);
        }
    }

    @Test
    void setsTheBitsOfExactlyThePassingRowsAtEveryWidth() {
        Random r = new Random(16);
        int[][] bytes = {{0, 0}, {0, 127}, {5, 7}, {127, 127}, {128, 128}, {128, 255}, {200, 255}, {255, 255}, {0, 22}};
        int[][] shorts = {
            {0, 0},
            {730, 1094},
            {0, 0x7FFF},
            {0x7FFF, 0x7FFF},
            {0x8000, 0x8000},
            {0x8000, 0xFFFF},
            {0x9000, 0xA000},
            {0xFFFF, 0xFFFF},
            {256, 300}
        };
        int[][] ints = {{0, 0}, {70_000, 70_000}, {0, 99_999}, {12_345, 67_890}, {99_999, 99_999}};
        try (Arena arena = Arena.ofConfined()) {
            for (int[] in : bytes) {
                check(arena, r, CodeWidth.BYTE, 256, in[0], in[1]);
                if (in[1] < 128) {
                    check(arena, r, CodeWidth.BYTE, Math.max(in[1] + 1, 50), in[0], in[1]);
                    check(arena, r, CodeWidth.BYTE, 128, in[0], in[1]);
                }
            }
            for (int[] in : shorts) {
                check(arena, r, CodeWidth.SHORT, 65_536, in[0], in[1]);
                if (in[1] < 0x8000) {
                    check(arena, r, CodeWidth.SHORT, 2_526, Math.min(in[0], 2_525), Math.min(in[1], 2_525));
                    check(arena, r, CodeWidth.SHORT, 0x8000, in[0], in[1]);
                }
            }
            for (int[] in : ints) {
                check(arena, r, CodeWidth.INT, 100_000, in[0], in[1]);
            }
        }
    }

    @Test
    void theMasksIntervalFromItsBlockCountsIsTheOneOfItsCodes() {
        Random r = new Random(17);
        for (int trial = 0; trial < 2_000; trial++) {
            int size = 1 + r.nextInt(trial % 2 == 0 ? 300 : 5_000);
            boolean[] m = new boolean[size];
            int lo = r.nextInt(size);
            int hi = lo + r.nextInt(size - lo);
            java.util.Arrays.fill(m, lo, hi + 1, r.nextInt(10) > 0);
            if (r.nextBoolean()) {
                m[r.nextInt(size)] ^= true;
            }
            CodeInterval want = CodeInterval.of(m);
            CodeInterval got = RowFilter.CodeMask.of(0, m).interval();
            String what = "size " + size + " [" + lo + ", " + hi + "]";
            assertEquals(want == null, got == null, what);
            if (want != null) {
                assertEquals(want.lo(), got.lo(), what);
                assertEquals(want.hi(), got.hi(), what);
            }
        }
    }

    @Test
    void declinesMasksThatAreNotOneIntervalAndIntervalsAcrossTheMiddleOfALane() {
        assertNull(CodeInterval.of(new boolean[10]), "no code passes");
        boolean[] two = mask(10, 2, 3);
        two[6] = true;
        assertNull(CodeInterval.of(two), "two intervals");
        assertFalse(CodeInterval.of(mask(256, 100, 130)).serves(CodeWidth.BYTE));
        assertTrue(CodeInterval.of(mask(256, 100, 130)).serves(CodeWidth.SHORT));
        assertFalse(CodeInterval.of(mask(65_536, 0x7000, 0x9000)).serves(CodeWidth.SHORT));
        assertTrue(CodeInterval.of(mask(65_536, 0x7000, 0x9000)).serves(CodeWidth.INT));
        assertFalse(CodeInterval.of(mask(300, 3, 299)).serves(CodeWidth.BYTE), "a code above 255 passes");
        boolean[] all = mask(7, 0, 6);
        assertEquals(6, CodeInterval.of(all).hi(), "every code");
    }
}
