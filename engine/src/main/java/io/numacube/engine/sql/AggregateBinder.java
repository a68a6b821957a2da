package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * Binds aggregate calls (SUM, COUNT, COUNT(*), COUNT(DISTINCT x), MIN, MAX, AVG of one argument, each with an
 * optional {@code FILTER (WHERE ...)}) into references to the query's aggregate list, adding each distinct aggregate
 * once. COUNT of an expression counts the rows where it is not NULL (of any type: text, dates, lookup attributes);
 * MIN and MAX of DISTINCT values are MIN and MAX.
 *
 * <p>Invariant: every {@link Expr.AggRef} it returns indexes {@link #bound()}. One per query; not thread-safe.
 */
final class AggregateBinder {

    private final Function<SqlNode, Expr> argumentBinder;
    private final Function<SqlNode, Expr> filterBinder;
    private final List<Expr.Agg> aggregates = new ArrayList<>();
    /** The aggregate as written ({@code sum(CASE WHEN ... END)}) of each expression {@link CaseAggregates} made. */
    private final java.util.Map<Expr, String> writtenTexts = new java.util.IdentityHashMap<>();

    /** @param argumentBinder binds an aggregate's argument expression; {@code filterBinder} its FILTER condition */
    AggregateBinder(Function<SqlNode, Expr> argumentBinder, Function<SqlNode, Expr> filterBinder) {
        this.argumentBinder = argumentBinder;
        this.filterBinder = filterBinder;
    }

    /** The aggregate a call's function name names, or null when it names none. */
    static Expr.AggKind kind(SqlNode e) {
        String name = ((SqlCall) e).getOperator().getName().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "SUM" -> Expr.AggKind.SUM;
            case "COUNT" -> Expr.AggKind.COUNT;
            case "MIN" -> Expr.AggKind.MIN;
            case "MAX" -> Expr.AggKind.MAX;
            case "AVG" -> Expr.AggKind.AVG;
            default -> null;
        };
    }

    /** The distinct aggregates bound so far, in the order first met. */
    List<Expr.Agg> bound() {
        return aggregates;
    }

    /**
     * The name of a bound output: the aggregate as written where {@code bound} is what a CASE aggregate was rewritten
     * to (not the FILTERs and counts it is computed by), else its own text.
     */
    String nameOf(Expr bound) {
        return writtenTexts.getOrDefault(bound, bound.text());
    }

    Expr bind(SqlCall call, Expr.AggKind kind, ExpressionBinder.Place place) {
        return bind(call, kind, place, null);
    }

    /** {@code agg(...) FILTER (WHERE condition)}: the aggregate over the rows where the condition is TRUE. */
    Expr bindFiltered(SqlCall filterCall, ExpressionBinder.Place place) {
        SqlNode inner = filterCall.operand(0);
        Expr.AggKind kind = inner instanceof SqlCall c ? kind(c) : null;
        if (kind == null) {
            throw unsupported(filterCall, "FILTER on something other than an aggregate");
        }
        checkCall((SqlCall) inner, place);
        return bind((SqlCall) inner, kind, place, filterBinder.apply(filterCall.operand(1)));
    }

    private Expr bind(SqlCall call, Expr.AggKind kind, ExpressionBinder.Place place, Expr filter) {
        checkCall(call, place);
        SqlNode argNode = call.operand(0);
        boolean distinct = call.getFunctionQuantifier() != null
                && "DISTINCT".equalsIgnoreCase(call.getFunctionQuantifier().toValue());
        Expr.Agg plain = kind == Expr.AggKind.COUNT && isStar(argNode)
                ? new Expr.Agg(Expr.AggKind.COUNT_STAR, null)
                : aggregateOf(kind, argNode);
        if (distinct && (kind == Expr.AggKind.SUM || kind == Expr.AggKind.AVG)) {
            throw unsupported(call, kind + "(DISTINCT ...)");
        }
        if (distinct && kind == Expr.AggKind.COUNT) {
            if (filter != null) {
                throw unsupported(call, "COUNT(DISTINCT ...) with FILTER");
            }
            plain = new Expr.Agg(Expr.AggKind.COUNT_DISTINCT, plain.arg());
        }
        if (plain.arg() != null && NullConstant.is(plain.arg())) {
            Expr ref = ref(overNull(plain));
            return ref instanceof Expr.AggRef r ? new Expr.AggRef(r.agg(), r.type(), plain.text(), r.scale()) : ref;
        }
        Expr.Agg agg = new Expr.Agg(plain.kind(), plain.arg(), filter);
        Expr byFilters = CaseAggregates.rewrite(agg, this::ref);
        if (byFilters == null) {
            return ref(agg);
        }
        writtenTexts.put(byFilters, agg.text());
        return byFilters;
    }

    /**
     * An aggregate of the NULL literal ({@code COUNT(NULL)}, {@code SUM(x + NULL)}) as the same aggregate over no row:
     * COUNT is 0, the others NULL, in every group.
     */
    private static Expr.Agg overNull(Expr.Agg agg) {
        Expr.AggKind kind = agg.kind();
        if (kind == Expr.AggKind.COUNT || kind == Expr.AggKind.COUNT_DISTINCT) {
            return new Expr.Agg(Expr.AggKind.COUNT_STAR, null, NullConstant.unknown());
        }
        Expr one = new Expr.Literal(1L, io.numacube.engine.schema.ColumnType.LONG);
        return new Expr.Agg(kind, one, NullConstant.unknown());
    }

    /** The reference to {@code agg}, added to the query's aggregates unless an equal one is there. */
    private Expr ref(Expr.Agg agg) {
        int i = aggregates.indexOf(agg);
        if (i < 0) {
            aggregates.add(agg);
            i = aggregates.size() - 1;
        }
        // AVG of a DECIMAL is finished as its DOUBLE value: the sum of its longs over count * 10^scale
        return new Expr.AggRef(i, agg.type(), agg.text(), agg.scale());
    }

    private static void checkCall(SqlCall call, ExpressionBinder.Place place) {
        if (place == ExpressionBinder.Place.ROW) {
            throw unsupported(call, "an aggregate in WHERE (use HAVING)");
        }
        if (place == ExpressionBinder.Place.AGGREGATE_ARGUMENT) {
            throw unsupported(call, "an aggregate inside an aggregate");
        }
        if (call.getFunctionQuantifier() != null
                && !"DISTINCT".equalsIgnoreCase(call.getFunctionQuantifier().toValue())) {
            throw unsupported(call, call.getOperator().getName() + "(" + call.getFunctionQuantifier() + " ...)");
        }
        if (call instanceof SqlBasicCall bc && call.operandCount() != 1) {
            throw unsupported(bc, call.getOperator().getName() + " with " + call.operandCount() + " arguments");
        }
    }

    /** The aggregate of an argument expression (not {@code *}). */
    private Expr.Agg aggregateOf(Expr.AggKind kind, SqlNode argNode) {
        Expr arg = argumentBinder.apply(argNode);
        if (Expr.isPredicate(arg)) {
            throw unsupported(argNode, "a condition as an aggregate argument");
        }
        if (kind == Expr.AggKind.COUNT) {
            return new Expr.Agg(kind, arg);
        }
        if ((kind == Expr.AggKind.MIN || kind == Expr.AggKind.MAX)
                && (arg.type().isDimension() || arg.type() == io.numacube.engine.schema.ColumnType.TIMESTAMP)) {
            // text, dates and INT codes: ordered by value through codes (or the ranks of a joined column's values)
            return new Expr.Agg(kind, arg);
        }
        if (kind == Expr.AggKind.SUM && arg.type() == io.numacube.engine.schema.ColumnType.BOOLEAN) {
            // DuckDB sums a BOOLEAN as 0 and 1 (the count of TRUEs); AVG of one is an error there, as here
            return new Expr.Agg(
                    kind, new Expr.Call("boolean_int", List.of(arg), io.numacube.engine.schema.ColumnType.LONG));
        }
        TypeRules.numeric(argNode, arg);
        return new Expr.Agg(kind, arg);
    }

    private static boolean isStar(SqlNode node) {
        return node instanceof SqlIdentifier id && id.isStar();
    }
}
