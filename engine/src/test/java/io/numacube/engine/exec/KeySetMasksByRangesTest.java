package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * {@link KeySetMasks#mask} of many keys found by ranges on the workers against the same mask found on the calling
 * thread and against a membership test per code: IN and NOT IN, NULL last (FALSE for both).
 */
class KeySetMasksByRangesTest {

    @Test
    void findsTheSameCodesByRangesAsOnOneThread() throws Exception {
        Random r = new Random(4);
        try (ThreadWorkerPool pool = new ThreadWorkerPool(2, 1)) {
            for (int round = 0; round < 6; round++) {
                TreeSet<Long> values = new TreeSet<>();
                while (values.size() < 60_000) {
                    values.add((long) r.nextInt(240_000));
                }
                long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
                Dictionary d = Dictionary.ofLongs(ColumnType.INT, sorted, round % 2 == 0);
                TreeSet<Long> keys = new TreeSet<>();
                while (keys.size() < KeySetMasks.PARALLEL_KEYS + 3_000) {
                    keys.add((long) r.nextInt(250_000));
                }
                InValues set =
                        InValues.ofKeys(keys.stream().mapToLong(Long::longValue).toArray());
                Expr.Column col = new Expr.Column(Expr.Side.FACT, 0, ColumnType.INT, "k");
                Expr in = new Expr.In(col, List.of(), false, set);
                Expr notIn = new Expr.Not(in);
                for (Expr e : List.of(in, notIn)) {
                    boolean[] parallel = KeySetMasks.mask(e, 0, d, c -> 0, pool);
                    boolean[] serial = KeySetMasks.mask(e, 0, d, c -> 0, null);
                    assertArrayEquals(serial, parallel, "round " + round + " " + e);
                    for (int code = 0; code < d.size(); code++) {
                        if (d.isNull(code)) {
                            assertTrue(!parallel[code], "NULL of " + e);
                            continue;
                        }
                        boolean member = keys.contains(d.longValue(code));
                        assertTrue(parallel[code] == (e == in ? member : !member), "code " + code + " of " + e);
                    }
                }
            }
        }
    }
}
