package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderRanks} against the JDK's sort of the boxed rows by their values compared one by one with {@link
 * ScalarEvaluator#compare} (NULL placed as each key says, descending negating, ties by row): text with characters
 * beyond U+FFFF and in U+E000..U+FFFF (where UTF-16 order is not code point order), longs, doubles with NaN, -0.0 and
 * 0.0, NULLs, every mix of ascending, descending and NULLS FIRST, some rows not kept, few and many distinct values (the
 * packed sort and, past 63 bits, the rank comparator).
 */
class OrderRanksTest {

    private static final String[] TEXT = {"a", "ab", "b", "", "\uD83D\uDE00", "\uFF21", "Brand#45", "Brand#5", "z"};

    private static Object value(Random rnd, int kind, int spread) {
        if (rnd.nextInt(10) == 0) {
            return null;
        }
        return switch (kind) {
            case 0 ->
                TEXT[rnd.nextInt(Math.min(TEXT.length, spread))] + (spread > TEXT.length ? rnd.nextInt(spread) : "");
            case 1 -> (long) rnd.nextInt(spread) - spread / 2;
            default ->
                new double[] {Double.NaN, -0.0, 0.0, 1.5, -2.25, Double.NEGATIVE_INFINITY}[rnd.nextInt(6)]
                        + (spread > 6 ? rnd.nextInt(spread) : 0);
        };
    }

    private static int compare(LogicalQuery.Order o, Object a, Object b) {
        if (a == null || b == null) {
            return a == b ? 0 : (a == null) == o.nullsFirst() ? -1 : 1;
        }
        int c = io.numacube.engine.schema.ValueOrder.compare(a, b);
        return o.descending() ? -c : c;
    }

    private static int[] expected(LogicalQuery.Order[] orders, Object[][] values, int[] kept) {
        Comparator<Integer> byValues = (x, y) -> {
            for (int i = 0; i < orders.length; i++) {
                int c = compare(orders[i], values[x][i], values[y][i]);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x, y);
        };
        return Arrays.stream(kept)
                .boxed()
                .sorted(byValues)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private static void check(Random rnd, int rows, int keys, int spread) {
        LogicalQuery.Order[] orders = new LogicalQuery.Order[keys];
        int[] kinds = new int[keys];
        for (int i = 0; i < keys; i++) {
            kinds[i] = rnd.nextInt(3);
            orders[i] = new LogicalQuery.Order(
                    new Expr.Literal(null, ColumnType.STRING, 0), rnd.nextBoolean(), rnd.nextBoolean());
        }
        Object[][] values = new Object[rows][];
        int[] kept = IntStream.range(0, rows).filter(r -> rnd.nextInt(5) != 0).toArray();
        for (int r : kept) {
            values[r] = new Object[keys];
            for (int i = 0; i < keys; i++) {
                values[r][i] = value(rnd, kinds[i], spread);
            }
        }
        int[] want = expected(orders, values, kept);
        int[] packed = OrderRanks.sorted(orders, values, kept);
        if (packed != null) {
            assertArrayEquals(want, packed, "packed, " + rows + " rows, " + keys + " keys, spread " + spread);
        }
        int[] compared = kept.clone();
        RowSort.sort(compared, OrderRanks.order(orders, values, kept));
        assertArrayEquals(want, compared, "ranks compared, " + rows + " rows, " + keys + " keys, spread " + spread);
    }

    @Test
    void ordersAsTheValuesDo() {
        Random rnd = new Random(16);
        for (int round = 0; round < 300; round++) {
            check(rnd, rnd.nextInt(300), 1 + rnd.nextInt(4), 1 + rnd.nextInt(round < 150 ? 12 : 5000));
        }
    }

    @Test
    void packsNoMoreThan63Bits() {
        Random rnd = new Random(17);
        int rows = 4000;
        LogicalQuery.Order[] orders = new LogicalQuery.Order[5];
        Arrays.fill(orders, new LogicalQuery.Order(new Expr.Literal(null, ColumnType.LONG, 0), false, false));
        Object[][] values = new Object[rows][];
        for (int r = 0; r < rows; r++) {
            values[r] = new Object[5];
            for (int i = 0; i < 5; i++) {
                values[r][i] = (long) rnd.nextInt();
            }
        }
        int[] kept = IntStream.range(0, rows).toArray();
        assertNull(OrderRanks.sorted(orders, values, kept), "5 keys of 4,000 distinct values need 72 bits");
        check(rnd, 4000, 5, 1 << 30);
    }
}
