package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * A code mask's test for 64 rows at once: bit {@code i} of {@link #word} is set exactly when the code of row {@code r
 * + i} passes the mask it was made from. Implementations compare a 64-bit word of codes at a time (SWAR) where the
 * width allows, so that {@link MaskWords} can AND several masks' words and write only the rows passing all of them.
 * Implementations are immutable and thread-safe.
 */
sealed interface CodeWordMatch permits FewCodes, CodeInterval {

    /** Moves bit {@code 8i} to bit {@code 56 + i}, for i = 0..7, without carries. */
    long BYTE_GATHER = 0x0102_0408_1020_4080L;

    /** Moves bit {@code 16i} to bit {@code 60 + i}, for i = 0..3, without carries. */
    long SHORT_GATHER = 0x1000_2000_4000_8000L;

    /** Whether {@link #word} serves codes of this width. */
    boolean serves(CodeWidth w);

    /**
     * The passing rows among {@code [r, r + 64)} of code column {@code s}, as bits {@code 0..63}; the 64 rows must lie
     * within {@code s}, whose width {@code w} is {@linkplain #serves served}.
     */
    long word(MemorySegment s, CodeWidth w, int r);
}
