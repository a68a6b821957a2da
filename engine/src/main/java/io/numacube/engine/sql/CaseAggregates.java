package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * An aggregate of a CASE whose condition and result read different columns ({@code SUM(CASE WHEN p_type LIKE 'PROMO%'
 * THEN l_extendedprice * (1 - l_discount) ELSE 0 END)}, TPC-H Q14), which cannot be computed per value of one column,
 * as aggregates with FILTER, which the executor runs row by row over any columns:
 *
 * <ul>
 *   <li>{@code agg(CASE WHEN c THEN x END)} is {@code agg(x) FILTER (WHERE c)} for SUM, AVG, MIN, MAX and COUNT (the
 *       rows where c is not TRUE give NULL, which aggregates skip);
 *   <li>{@code SUM(CASE WHEN c THEN x ELSE 0 END)} is {@code COALESCE(SUM(x) FILTER (WHERE c), 0)}, and NULL where the
 *       CASE has no non-NULL value: no row where c is TRUE and x is not NULL, and no row where c is not TRUE ({@code
 *       COUNT(x) FILTER (WHERE c) + COUNT(*) - COUNT(*) FILTER (WHERE c) = 0}).
 * </ul>
 *
 * An aggregate's own FILTER is ANDed with c. Other CASE forms are left as they are (and refused by the executor where
 * it cannot compute them). Stateless; thread-safe.
 */
final class CaseAggregates {

    private CaseAggregates() {}

    /**
     * {@code agg} rewritten as above, each aggregate it needs referenced through {@code ref}; null when the rule does
     * not apply.
     */
    static Expr rewrite(Expr.Agg agg, Function<Expr.Agg, Expr> ref) {
        if (!(agg.arg() instanceof Expr.Case c) || c.conditions().size() != 1 || !readsSeveralColumns(c)) {
            return null;
        }
        Expr cond = agg.filter() == null
                ? c.conditions().getFirst()
                : new Expr.And(List.of(agg.filter(), c.conditions().getFirst()));
        Expr x = c.results().getFirst();
        if (c.otherwise() == null && agg.kind() != Expr.AggKind.COUNT_DISTINCT) {
            return ref.apply(new Expr.Agg(agg.kind(), x, cond));
        }
        if (agg.kind() != Expr.AggKind.SUM
                || !isZero(c.otherwise())
                || !Expr.isInteger(x.type()) && x.type() != ColumnType.DOUBLE) {
            return null;
        }
        Expr sum = ref.apply(new Expr.Agg(Expr.AggKind.SUM, x, cond));
        Expr valued = new Expr.Arith(
                '+',
                ref.apply(new Expr.Agg(Expr.AggKind.COUNT, x, cond)),
                new Expr.Arith(
                        '-',
                        ref.apply(new Expr.Agg(Expr.AggKind.COUNT_STAR, null, agg.filter())),
                        ref.apply(new Expr.Agg(Expr.AggKind.COUNT_STAR, null, cond))));
        Expr zero = c.otherwise();
        Expr sumOrZero = new Expr.Call("coalesce", List.of(sum, zero), sum.type());
        return new Expr.Case(
                List.of(new Expr.Compare(Expr.CompareOp.NE, valued, new Expr.Literal(0L, ColumnType.LONG))),
                List.of(sumOrZero),
                null,
                sum.type());
    }

    private static boolean isZero(Expr e) {
        return e instanceof Expr.Literal l && l.value() instanceof Number n && n.doubleValue() == 0;
    }

    private static boolean readsSeveralColumns(Expr e) {
        Set<String> columns = new HashSet<>();
        Expr.walk(e, n -> {
            if (n instanceof Expr.Column col) {
                columns.add(col.side() + ":" + col.index());
            }
        });
        return columns.size() > 1;
    }
}
