package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A code mask that passes at most {@value #MAX_CODES} codes (an {@code IN} list or an equality on a dimension), matched
 * a 64-bit word of codes at a time (SWAR): eight byte codes or four short codes are compared with each passing code at
 * once, the matches of 64 rows gathered into one bitmap, and only its set bits written to the selection vector. The
 * per-row mask lookup of {@link CodeKernels#selectDense} costs a load, a bounds check and a store for every row; this
 * costs a few word operations per eight rows and a store per selected row, which is what a selective filter needs.
 *
 * <p>Invariant: {@code lanes[i]} is passing code {@code codes[i]} repeated in every byte ({@code byteLanes}) or every
 * 16-bit lane ({@code shortLanes}); fewer than four codes repeat the first, so that the kernel compares four. A row
 * is selected exactly when its code is one of {@code codes}: the same rows, in the same (ascending) order, as {@link
 * CodeKernels#selectDense} with the mask this was made from. Immutable; thread-safe.
 */
final class FewCodes implements CodeWordMatch {

    /** The most passing codes matched this way. */
    static final int MAX_CODES = 4;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long BYTE_LOW = 0x7F7F_7F7F_7F7F_7F7FL;
    private static final long BYTE_HIGH = 0x8080_8080_8080_8080L;
    private static final long BYTE_ONES = 0x0101_0101_0101_0101L;

    private static final long SHORT_LOW = 0x7FFF_7FFF_7FFF_7FFFL;
    private static final long SHORT_HIGH = 0x8000_8000_8000_8000L;
    private static final long SHORT_ONES = 0x0001_0001_0001_0001L;

    private final int[] codes;
    private final long b0;
    private final long b1;
    private final long b2;
    private final long b3;
    private final long s0;
    private final long s1;
    private final long s2;
    private final long s3;

    private FewCodes(int[] codes) {
        this.codes = codes;
        int[] four = {
            codes[0],
            codes[Math.min(1, codes.length - 1)],
            codes[Math.min(2, codes.length - 1)],
            codes[Math.min(3, codes.length - 1)]
        };
        b0 = (four[0] & 0xFFL) * BYTE_ONES;
        b1 = (four[1] & 0xFFL) * BYTE_ONES;
        b2 = (four[2] & 0xFFL) * BYTE_ONES;
        b3 = (four[3] & 0xFFL) * BYTE_ONES;
        s0 = (four[0] & 0xFFFFL) * SHORT_ONES;
        s1 = (four[1] & 0xFFFFL) * SHORT_ONES;
        s2 = (four[2] & 0xFFFFL) * SHORT_ONES;
        s3 = (four[3] & 0xFFFFL) * SHORT_ONES;
    }

    /**
     * The few passing codes of {@code passes}, or null when more than {@value #MAX_CODES} codes pass, none does, or
     * a passing code does not fit a short (the word kernels could not tell it from another).
     */
    static FewCodes of(boolean[] passes) {
        int[] found = new int[MAX_CODES];
        int n = 0;
        for (int c = 0; c < passes.length; c++) {
            if (passes[c]) {
                if (n == MAX_CODES || c > 0xFFFF) {
                    return null;
                }
                found[n++] = c;
            }
        }
        return n == 0 ? null : new FewCodes(java.util.Arrays.copyOf(found, n));
    }

    /** Whether the word kernels serve codes of this width (bytes and shorts; a byte code above 255 never occurs). */
    @Override
    public boolean serves(CodeWidth w) {
        return w == CodeWidth.SHORT || w == CodeWidth.BYTE && codes[codes.length - 1] <= 0xFF;
    }

    /** The passing codes, ascending. */
    int[] codes() {
        return codes.clone();
    }

    /**
     * Writes the rows of {@code [b, b + n)} whose code is one of the passing codes into {@code sel}, ascending;
     * returns their count. {@code w} must be {@linkplain #serves served}.
     */
    int select(MemorySegment s, CodeWidth w, int b, int n, int[] sel) {
        return w == CodeWidth.BYTE ? selectBytes(s, b, n, sel) : selectShorts(s, b, n, sel);
    }

    @Override
    public long word(MemorySegment s, CodeWidth w, int r) {
        return w == CodeWidth.BYTE ? byteWord(s, r) : shortWord(s, r);
    }

    private long byteWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 8) {
            long x = s.get(WORD, r + j);
            long hit = zeroBytes(x ^ b0) | zeroBytes(x ^ b1) | zeroBytes(x ^ b2) | zeroBytes(x ^ b3);
            bits |= ((hit >>> 7) * BYTE_GATHER >>> 56) << j;
        }
        return bits;
    }

    private long shortWord(MemorySegment s, int r) {
        long bits = 0;
        for (int j = 0; j < 64; j += 4) {
            long x = s.get(WORD, 2L * (r + j));
            long hit = zeroShorts(x ^ s0) | zeroShorts(x ^ s1) | zeroShorts(x ^ s2) | zeroShorts(x ^ s3);
            bits |= ((hit >>> 15) * SHORT_GATHER >>> 60) << j;
        }
        return bits;
    }

    private int selectBytes(MemorySegment s, int b, int n, int[] sel) {
        int cnt = 0;
        int r = b;
        int end = b + n;
        for (; r + 64 <= end; r += 64) {
            cnt = expand(byteWord(s, r), r, sel, cnt);
        }
        for (; r < end; r++) {
            sel[cnt] = r;
            cnt += passes(s.get(CodeKernels.BYTE, r) & 0xFF) ? 1 : 0;
        }
        return cnt;
    }

    private int selectShorts(MemorySegment s, int b, int n, int[] sel) {
        int cnt = 0;
        int r = b;
        int end = b + n;
        for (; r + 64 <= end; r += 64) {
            cnt = expand(shortWord(s, r), r, sel, cnt);
        }
        for (; r < end; r++) {
            sel[cnt] = r;
            cnt += passes(s.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF) ? 1 : 0;
        }
        return cnt;
    }

    /** The high bit of each byte of {@code v} that is zero (exact: no borrow crosses bytes). */
    private static long zeroBytes(long v) {
        return ~(((v & BYTE_LOW) + BYTE_LOW) | v) & BYTE_HIGH;
    }

    /** The high bit of each 16-bit lane of {@code v} that is zero. */
    private static long zeroShorts(long v) {
        return ~(((v & SHORT_LOW) + SHORT_LOW) | v) & SHORT_HIGH;
    }

    /** Appends row {@code r + i} for every set bit {@code i} of {@code bits}, ascending. */
    static int expand(long bits, int r, int[] sel, int cnt) {
        while (bits != 0) {
            sel[cnt++] = r + Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
        }
        return cnt;
    }

    private boolean passes(int code) {
        for (int c : codes) {
            if (c == code) {
                return true;
            }
        }
        return false;
    }
}
