package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A code mask whose passing codes are one interval {@code [lo, hi]}, matched 64 rows at a time into a bitmap word
 * ({@link CodeWordMatch}). A range predicate on a column of a sorted dictionary passes such an interval (TPC-H Q6's
 * date range, {@code discount BETWEEN}, {@code quantity <}); the test is then a subtraction per side rather than a
 * table lookup per row: eight byte codes or four short codes are compared at once in a 64-bit word (SWAR), an int
 * code by one unsigned comparison.
 *
 * <p>The word test is exact for a lane whose code and interval lie in the same half of the lane's range: with the
 * lane's top bit cleared (after flipping it where the interval is in the upper half), {@code (x | H) - lo} and {@code
 * (hi | H) - x} stay within the lane (no borrow crosses lanes) and keep its top bit exactly when {@code x >= lo}, resp.
 * {@code x <= hi}; a lane whose top bit was set is out of the interval. So an interval that straddles the middle of the
 * byte (or short) range is not {@linkplain #serves served} at that width.
 *
 * <p>Where the mask has at most 0x80 (resp. 0x8000) codes, no code a row holds (every one is below the mask's length,
 * as for the mask's lookup) has its lane's top bit set, and the test skips clearing it.
 *
 * <p>Invariant: {@code 0 <= lo <= hi}, and a row's bit is set exactly when {@code passes[code]} of the mask this was
 * made from. Immutable; thread-safe.
 */
final class CodeInterval implements CodeWordMatch {

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long BYTE_HIGH = 0x8080_8080_8080_8080L;
    private static final long BYTE_ONES = 0x0101_0101_0101_0101L;
    private static final long SHORT_HIGH = 0x8000_8000_8000_8000L;
    private static final long SHORT_ONES = 0x0001_0001_0001_0001L;

    private final int lo;
    private final int hi;
    /** {@code lo}, {@code hi | top bit} and the flip of the half, repeated in every byte lane. */
    private final long byteLo;

    private final long byteHi;
    private final long byteFlip;
    /** The same in every 16-bit lane. */
    private final long shortLo;

    private final long shortHi;
    private final long shortFlip;
    /** Whether every code is below 0x80 (resp. 0x8000): no lane's top bit is set, so none needs clearing. */
    private final boolean smallBytes;

    private final boolean smallShorts;

    private CodeInterval(int lo, int hi, int codes) {
        this.lo = lo;
        this.hi = hi;
        smallBytes = codes <= 0x80;
        smallShorts = codes <= 0x8000;
        byteFlip = lo >= 0x80 ? BYTE_HIGH : 0;
        byteLo = (lo & 0x7FL) * BYTE_ONES;
        byteHi = (hi & 0x7FL) * BYTE_ONES | BYTE_HIGH;
        shortFlip = lo >= 0x8000 ? SHORT_HIGH : 0;
        shortLo = (lo & 0x7FFFL) * SHORT_ONES;
        shortHi = (hi & 0x7FFFL) * SHORT_ONES | SHORT_HIGH;
    }

    /** The interval of the codes that pass, or null where none passes or they are not one interval. */
    static CodeInterval of(boolean[] passes) {
        int lo = 0;
        while (lo < passes.length && !passes[lo]) {
            lo++;
        }
        if (lo == passes.length) {
            return null;
        }
        int hi = lo;
        while (hi + 1 < passes.length && passes[hi + 1]) {
            hi++;
        }
        for (int c = hi + 1; c < passes.length; c++) {
            if (passes[c]) {
                return null;
            }
        }
        return new CodeInterval(lo, hi, passes.length);
    }

    /**
     * {@link #of} from a count: the passing codes are one interval exactly when the first and the last are {@code
     * passing - 1} apart. The first passing code lies in the block of {@value RowFilter.CodeMask#BLOCK} codes from
     * {@code firstFrom}, the last in the block from {@code lastFrom}, and {@code passing} (at least 1) codes pass in
     * all. Reads at most those two blocks.
     */
    static CodeInterval spanning(boolean[] passes, int firstFrom, int lastFrom, int passing) {
        int lo = firstFrom;
        while (!passes[lo]) {
            lo++;
        }
        int hi = Math.min(passes.length, lastFrom + RowFilter.CodeMask.BLOCK) - 1;
        while (!passes[hi]) {
            hi--;
        }
        return hi - lo + 1 == passing ? new CodeInterval(lo, hi, passes.length) : null;
    }

    /** The lowest passing code. */
    int lo() {
        return lo;
    }

    /** The highest passing code. */
    int hi() {
        return hi;
    }

    @Override
    public boolean serves(CodeWidth w) {
        return switch (w) {
            case BYTE -> hi <= 0xFF && (lo >= 0x80) == (hi >= 0x80);
            case SHORT -> hi <= 0xFFFF && (lo >= 0x8000) == (hi >= 0x8000);
            case INT -> true;
        };
    }

    @Override
    public long word(MemorySegment s, CodeWidth w, int r) {
        return switch (w) {
            case BYTE -> smallBytes ? smallByteWord(s, r) : byteWord(s, r);
            case SHORT -> smallShorts ? smallShortWord(s, r) : shortWord(s, r);
            case INT -> intWord(s, r);
        };
    }

    /** {@link #byteWord} where every code is below 0x80 (the codes are fewer than the mask's length). */
    private long smallByteWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 8) {
            long x = s.get(WORD, r + j);
            long hit = ((x | BYTE_HIGH) - byteLo) & (byteHi - x) & BYTE_HIGH;
            bits |= ((hit >>> 7) * CodeWordMatch.BYTE_GATHER >>> 56) << j;
        }
        return bits;
    }

    /** {@link #shortWord} where every code is below 0x8000. */
    private long smallShortWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 4) {
            long x = s.get(WORD, 2L * (r + j));
            long hit = ((x | SHORT_HIGH) - shortLo) & (shortHi - x) & SHORT_HIGH;
            bits |= ((hit >>> 15) * CodeWordMatch.SHORT_GATHER >>> 60) << j;
        }
        return bits;
    }

    private long byteWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 8) {
            long x = s.get(WORD, r + j) ^ byteFlip;
            long low = x & ~BYTE_HIGH;
            long hit = ((low | BYTE_HIGH) - byteLo) & (byteHi - low) & ~x & BYTE_HIGH;
            bits |= ((hit >>> 7) * CodeWordMatch.BYTE_GATHER >>> 56) << j;
        }
        return bits;
    }

    private long shortWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 4) {
            long x = s.get(WORD, 2L * (r + j)) ^ shortFlip;
            long low = x & ~SHORT_HIGH;
            long hit = ((low | SHORT_HIGH) - shortLo) & (shortHi - low) & ~x & SHORT_HIGH;
            bits |= ((hit >>> 15) * CodeWordMatch.SHORT_GATHER >>> 60) << j;
        }
        return bits;
    }

    private long intWord(MemorySegment s, int r) {
        long bits = 0;
        long span = (long) hi - lo + 1;
        for (int j = 0; j < 64; j++) {
            long d = (s.getAtIndex(CodeKernels.INT, r + j) - lo) & 0xFFFF_FFFFL;
            bits |= ((d - span) >>> 63) << j;
        }
        return bits;
    }
}
