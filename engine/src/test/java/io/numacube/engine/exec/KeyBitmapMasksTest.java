package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.InValues;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.workers.ThreadWorkerPool;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyBitmapMasks} against a membership test per code, through {@link KeySetMasks#mask} with the bitmap on and
 * off: IN and NOT IN, keys dense and sparse among the codes, negative, beyond the dictionary's values on both sides,
 * NULL last (FALSE for both); and the cases it must decline.
 */
class KeyBitmapMasksTest {

    @Test
    void marksEachCodeAsAMembershipTestDoesWithTheBitmapOnAndOff() throws Exception {
        Random r = new Random(16);
        try (ThreadWorkerPool pool = new ThreadWorkerPool(2, 1)) {
            for (int round = 0; round < 8; round++) {
                TreeSet<Long> values = new TreeSet<>();
                while (values.size() < 50_000) {
                    values.add((long) r.nextInt(200_000) - 100_000);
                }
                Dictionary d = Dictionary.ofLongs(
                        ColumnType.INT,
                        values.stream().mapToLong(Long::longValue).toArray(),
                        round % 2 == 0);
                TreeSet<Long> keys = new TreeSet<>();
                while (keys.size() < 300 + round * 2_000) {
                    // dense keys, then keys over ten times the values' range (too sparse: searched)
                    keys.add(round < 4 ? r.nextInt(220_000) - 110_000 : r.nextInt(2_000_000) - 1_000_000L);
                }
                InValues set =
                        InValues.ofKeys(keys.stream().mapToLong(Long::longValue).toArray());
                Expr.Column col = new Expr.Column(Expr.Side.FACT, 0, ColumnType.INT, "k");
                Expr in = new Expr.In(col, List.of(), false, set);
                for (Expr e : List.of(in, new Expr.Not(in))) {
                    for (String on : List.of("true", "false")) {
                        System.setProperty(KeyBitmapMasks.PROPERTY, on);
                        try {
                            boolean[] m = KeySetMasks.mask(e, 0, d, c -> 0, round % 3 == 0 ? null : pool);
                            for (int code = 0; code < d.size(); code++) {
                                if (d.isNull(code)) {
                                    assertFalse(m[code], "NULL of " + e);
                                    continue;
                                }
                                boolean member = keys.contains(d.longValue(code));
                                assertEquals(e == in ? member : !member, m[code], "code " + code + " " + e + on);
                            }
                        } finally {
                            System.clearProperty(KeyBitmapMasks.PROPERTY);
                        }
                    }
                }
            }
        }
    }

    @Test
    void declinesKeysTooSparseForABitmapAndKeysSpanningTheLongRange() {
        Dictionary d = Dictionary.ofLongs(ColumnType.INT, new long[] {1, 2, 3, 4}, true);
        boolean[] m = new boolean[d.size()];
        assertFalse(KeyBitmapMasks.set(m, d, new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, true, null));
        assertFalse(KeyBitmapMasks.set(m, d, new long[] {0, 1_000_000}, true, null));
        assertTrue(KeyBitmapMasks.set(m, d, new long[] {2, 4}, true, null));
        assertTrue(m[1] && m[3] && !m[0] && !m[2] && !m[4]);
    }
}
