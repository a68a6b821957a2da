package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RowFilter.CodeMask#passingIn} and {@link RowFilter.CodeMask#passing} against counting the codes one by one. */
class CodeMaskCountsTest {

    @Test
    void countsThePassingCodesOfAnyRangeAsCountingThemDoes() {
        Random r = new Random(64);
        for (int round = 0; round < 300; round++) {
            int size = 1 + r.nextInt(round < 100 ? 200 : 5000);
            boolean[] passes = new boolean[size];
            int density = 1 + r.nextInt(10);
            int all = 0;
            for (int c = 0; c < size; c++) {
                passes[c] = r.nextInt(density) == 0;
                all += passes[c] ? 1 : 0;
            }
            RowFilter.CodeMask m = RowFilter.CodeMask.of(0, passes);
            assertEquals(all, m.passing(), "round " + round);
            assertEquals(all, m.passingIn(0, size - 1), "round " + round);
            for (int k = 0; k < 50; k++) {
                int lo = r.nextInt(size);
                int hi = lo + r.nextInt(size - lo);
                int n = 0;
                for (int c = lo; c <= hi; c++) {
                    n += passes[c] ? 1 : 0;
                }
                assertEquals(n, m.passingIn(lo, hi), "round " + round + " [" + lo + ", " + hi + "] of " + size);
            }
        }
    }
}
