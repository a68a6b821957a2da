package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link DerivedKey#of} numbers a key's distinct values in ascending order whether they come in ascending order (no
 * hash table kept) or not (the hash table filled at the first value out of order): the dictionary is the sorted
 * distinct values, NULL last, and each source code maps to its value's place, as an independent sort of the values
 * says, and as with {@link DerivedKey#ASCENDING_PROPERTY} false. Seeded random sequences of integers and texts:
 * ascending, ascending then a repeat or a lower value, shuffled, with NULLs and unreachable codes.
 */
class DerivedKeyTest {

    @Test
    void integerKeysAreNumberedInValueOrderWhateverTheOrderTheyComeIn() {
        SplittableRandom rnd = new SplittableRandom(16);
        for (int i = 0; i < 400; i++) {
            List<Object> values = sequence(rnd, n -> (long) n * 3 - 50);
            check(new Expr.Column(Expr.Side.FACT, 0, ColumnType.INT, "k"), values, "seed 16 case " + i);
        }
    }

    @Test
    void textKeysAreNumberedInValueOrderWhateverTheOrderTheyComeIn() {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int i = 0; i < 400; i++) {
            List<Object> values = sequence(rnd, n -> String.format("v%05d", n));
            check(new Expr.Column(Expr.Side.FACT, 0, ColumnType.STRING, "s"), values, "seed 17 case " + i);
        }
    }

    /** Values of distinct ascending numbers, then one of four shapes; some NULLs and unreachable codes among them. */
    private static List<Object> sequence(SplittableRandom rnd, java.util.function.IntFunction<Object> value) {
        int n = rnd.nextInt(1, 60);
        List<Object> out = new ArrayList<>();
        int next = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            out.add(value.apply(next));
            next += rnd.nextInt(1, 4);
        }
        switch (rnd.nextInt(4)) {
            case 0 -> {} // ascending throughout
            case 1 -> out.add(out.get(rnd.nextInt(out.size()))); // a repeat at the end
            case 2 -> out.add(rnd.nextInt(out.size() + 1), value.apply(rnd.nextInt(next))); // one out of place
            default -> java.util.Collections.shuffle(out, new java.util.Random(rnd.nextLong()));
        }
        for (int i = 0; i < out.size(); i++) {
            int r = rnd.nextInt(10);
            if (r == 0) {
                out.set(i, null);
            } else if (r == 1) {
                out.set(i, DerivedKey.ABSENT);
            }
        }
        return out;
    }

    private static void check(Expr key, List<Object> values, String what) {
        DerivedKey k = DerivedKey.of(key, values.size(), values::get);
        TreeSet<Object> sorted = new TreeSet<>(DerivedKeyTest::naturalOrder);
        boolean hasNull = false;
        for (Object v : values) {
            if (v == null) {
                hasNull = true;
            } else if (v != DerivedKey.ABSENT) {
                sorted.add(v);
            }
        }
        List<Object> expected = new ArrayList<>(sorted);
        assertEquals(expected.size() + (hasNull ? 1 : 0), k.dictionary().size(), what + " " + values);
        for (int c = 0; c < expected.size(); c++) {
            assertEquals(expected.get(c), QueryCompiler.scalar(k.dictionary(), c), what + " code " + c);
        }
        for (int code = 0; code < values.size(); code++) {
            Object v = values.get(code);
            int want = v == null ? k.dictionary().nullCode() : v == DerivedKey.ABSENT ? 0 : expected.indexOf(v);
            assertEquals(want, k.codeOfSourceCode()[code], what + " source code " + code + " of " + values);
        }
        System.setProperty(DerivedKey.ASCENDING_PROPERTY, "false");
        try {
            DerivedKey hashed = DerivedKey.of(key, values.size(), values::get);
            assertArrayEquals(hashed.codeOfSourceCode(), k.codeOfSourceCode(), what);
        } finally {
            System.clearProperty(DerivedKey.ASCENDING_PROPERTY);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int naturalOrder(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }
}
