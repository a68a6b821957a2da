package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.ValueOrder;
import io.numacube.engine.storage.Dictionary;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A GROUP BY key that is a function of one coded fact column: an attribute of the joined dimension table ({@code
 * books.region}, a function of the fact's join key) or an expression of one dimension ({@code year(trade_date)},
 * {@code CASE WHEN desk IN (...) ...}). Its distinct values form a dictionary in value order, NULL last; the scan reads
 * the source column's codes and maps them, so grouping costs what grouping by a fact column costs and no expression is
 * evaluated per row. Immutable.
 *
 * <p>Invariant: {@code codeOfSourceCode[c]} is a code of {@code dictionary} for every code {@code c} of the source
 * column (a source code the inner join drops maps to 0 or the NULL code; its rows never reach the grouping).
 *
 * @param dictionary       the key's values, ascending, NULL last when a value is NULL
 * @param codeOfSourceCode per source code, the key's code, or {@link #FAILED} where computing the value failed
 * @param errors           those failures by source code (a value is computed for every code, but, as in DuckDB, only
 *                         a row that reaches such a code fails: {@code make_date(2013, 2, 29)} of a combination of
 *                         year, month and day that no row has is no error)
 */
record DerivedKey(Dictionary dictionary, int[] codeOfSourceCode, Map<Integer, NumacubeException> errors) {

    /** The code a source code maps to when computing its value failed: a row that reaches it raises the error. */
    static final int FAILED = -1;

    /**
     * @param key         the key expression
     * @param sourceCodes the source column's code count
     * @param valueOfCode the key's value for a source code (String, Long or null), or a marker {@link #ABSENT} for a
     *                    code whose rows never reach the grouping
     */
    static DerivedKey of(Expr key, int sourceCodes, IntFunction<Object> valueOfCode) {
        ColumnType type = key.type();
        if (type == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "unsupported SQL: GROUP BY a value of no type: " + key.text(),
                    null,
                    null);
        }
        Ids found = new Ids();
        int[] ids = new int[sourceCodes];
        Map<Integer, NumacubeException> errors = new HashMap<>();
        boolean hasNull = false;
        boolean positiveZero = false;
        for (int code = 0; code < sourceCodes; code++) {
            Object v;
            try {
                v = valueOfCode.apply(code);
            } catch (NumacubeException e) {
                if (e.kind() == NumacubeException.Kind.INTERNAL) {
                    throw e;
                }
                errors.put(code, e);
                ids[code] = FAILED;
                continue;
            }
            hasNull |= v == null;
            positiveZero |= v instanceof Double x && Double.doubleToRawLongBits(x) == 0L;
            ids[code] = v == null ? NULL_ID : v == ABSENT ? ABSENT_ID : found.idOf(canonical(v));
        }
        List<Object> valueOfId = found.valueOfId;
        int[] rank = found.ascending() ? identity(valueOfId.size()) : ranks(valueOfId);
        Object[] sorted = new Object[rank.length];
        for (int id = 0; id < rank.length; id++) {
            sorted[rank[id]] = valueOfId.get(id);
        }
        Dictionary d = dictionary(type, Arrays.asList(sorted), hasNull, positiveZero);
        int[] map = new int[sourceCodes];
        for (int code = 0; code < sourceCodes; code++) {
            int id = ids[code];
            map[code] = id == FAILED ? FAILED : id == NULL_ID ? d.nullCode() : id == ABSENT_ID ? 0 : rank[id];
        }
        return new DerivedKey(d, map, Map.copyOf(errors));
    }

    private static final int NULL_ID = -2;
    private static final int ABSENT_ID = -3;

    /** The system property that, {@code false}, hashes every value even while they come in ascending order (A/B). */
    static final String ASCENDING_PROPERTY = "numacube.ascendingKeys";

    /**
     * The distinct values of a key in first-seen order, each value's id its place in that order. While every new
     * value is above the one before (a key of a column's values read in its dictionary's order), each is new and the
     * ids ascend with the values, so no hash table is kept; the first value that is not above the last fills it with
     * the values so far, and from then on each value is looked up. Either way a value gets the id the hash table alone
     * would give it.
     */
    private static final class Ids {
        private final List<Object> valueOfId = new ArrayList<>();
        private Map<Object, Integer> idOfValue =
                "false".equals(System.getProperty(ASCENDING_PROPERTY)) ? new HashMap<>() : null;

        /** Whether the values so far came in ascending order, each above the one before: their ids are their ranks. */
        boolean ascending() {
            return idOfValue == null;
        }

        int idOf(Object v) {
            if (idOfValue == null) {
                if (valueOfId.isEmpty() || ValueOrder.compare(valueOfId.getLast(), v) < 0) {
                    valueOfId.add(v);
                    return valueOfId.size() - 1;
                }
                idOfValue = new HashMap<>(valueOfId.size() * 2);
                for (int id = 0; id < valueOfId.size(); id++) {
                    idOfValue.put(valueOfId.get(id), id);
                }
            }
            Integer id = idOfValue.get(v);
            if (id == null) {
                id = valueOfId.size();
                idOfValue.put(v, id);
                valueOfId.add(v);
            }
            return id;
        }
    }

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /** Per value id, its place among the values in ascending order: only the distinct values are sorted. */
    private static int[] ranks(List<Object> valueOfId) {
        Integer[] order = new Integer[valueOfId.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> ValueOrder.compare(valueOfId.get(x), valueOfId.get(y)));
        int[] rank = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            rank[order[i]] = i;
        }
        return rank;
    }

    private static Dictionary dictionary(ColumnType type, List<Object> sorted, boolean hasNull, boolean positiveZero) {
        return switch (type) {
            case STRING -> Dictionary.ofStrings(sorted.toArray(String[]::new), hasNull);
            case DOUBLE -> Dictionary.ofDoubles(doubles(sorted, positiveZero), hasNull);
            default ->
                Dictionary.ofLongs(
                        type == ColumnType.DATE || type == ColumnType.BOOLEAN || type == ColumnType.TIMESTAMP
                                ? type
                                : ColumnType.INT,
                        sorted.stream().mapToLong(v -> ((Number) v).longValue()).toArray(),
                        hasNull);
        };
    }

    /** The values of a DOUBLE key; its zero is -0.0 when no value was 0.0 (DuckDB shows a group's first value). */
    private static double[] doubles(List<Object> sorted, boolean positiveZero) {
        double[] out = new double[sorted.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) sorted.get(i)).doubleValue();
            if (out[i] == 0.0 && !positiveZero) {
                out[i] = -0.0;
            }
        }
        return out;
    }

    /** A DOUBLE value as DuckDB groups it: -0.0 as 0.0 (Double.equals tells them apart; every NaN is one already). */
    private static Object canonical(Object v) {
        return v instanceof Double d && d == 0.0 ? (Object) 0.0 : v;
    }

    /** The value of a source code whose rows never reach the grouping (a join key the dimension table lacks). */
    static final Object ABSENT = new Object();
}
