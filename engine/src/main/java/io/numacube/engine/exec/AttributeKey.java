package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A GROUP BY key that is an attribute of the joined dimension table ({@code books.region}): its distinct values as a
 * dictionary in value order with NULL last, and the attribute's code for every fact join-key code. The scan reads the
 * fact's join-key codes and maps them, so no row of the dimension table is touched per fact row. Immutable.
 *
 * <p>Invariant: {@code codeOfJoinCode[c]} is a code of {@code dictionary} for every fact join-key code {@code c} (a
 * code without a dimension row maps to the NULL code or 0; the inner join drops its rows before grouping).
 *
 * @param dictionary     the attribute's values, ascending, NULL last when a joined row holds NULL
 * @param codeOfJoinCode per fact join-key code, the attribute's code
 */
record AttributeKey(Dictionary dictionary, int[] codeOfJoinCode) {

    static AttributeKey of(Expr.Column attribute, LookupIndex lookup) {
        if (attribute.type() == ColumnType.DOUBLE) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "unsupported SQL: GROUP BY a DOUBLE column of the joined table: column=" + attribute.name(),
                    null,
                    null);
        }
        int[] rowOfCode = lookup.rowOfCode();
        List<Object> values = new ArrayList<>();
        boolean hasNull = false;
        for (int code = 0; code < rowOfCode.length; code++) {
            Object v = rowOfCode[code] < 0 ? null : lookup.valueAt(attribute.index(), code);
            if (v == null) {
                hasNull |= rowOfCode[code] >= 0;
            } else {
                values.add(v);
            }
        }
        List<Object> sorted =
                values.stream().distinct().sorted(ScalarEvaluator::compare).toList();
        Map<Object, Integer> codeOfValue = new HashMap<>();
        for (int i = 0; i < sorted.size(); i++) {
            codeOfValue.put(sorted.get(i), i);
        }
        Dictionary d = attribute.type() == ColumnType.STRING
                ? Dictionary.ofStrings(sorted.toArray(String[]::new), hasNull)
                : Dictionary.ofLongs(
                        attribute.type() == ColumnType.DATE ? ColumnType.DATE : ColumnType.INT,
                        sorted.stream().mapToLong(v -> (Long) v).toArray(),
                        hasNull);
        int[] map = new int[rowOfCode.length];
        for (int code = 0; code < map.length; code++) {
            Object v = rowOfCode[code] < 0 ? null : lookup.valueAt(attribute.index(), code);
            map[code] = v == null ? Math.max(0, d.nullCode()) : codeOfValue.get(v);
        }
        return new AttributeKey(d, map);
    }
}
