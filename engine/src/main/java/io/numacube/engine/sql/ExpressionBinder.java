package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.at;
import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;
import static io.numacube.engine.sql.TypeRules.coerce;
import static io.numacube.engine.sql.TypeRules.comparable;
import static io.numacube.engine.sql.TypeRules.numeric;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Binds the expressions of one query: column references, literals, arithmetic, comparisons, IN lists, BETWEEN,
 * AND/OR/NOT, and (through its {@link AggregateBinder}) aggregate calls. {@link #bind} dispatches on the syntax kind to
 * one method per kind; each of those binds its operands through {@link #bind} again, which counts the nesting and
 * refuses more than {@link SqlBinder#MAX_DEPTH} levels with 54001.
 *
 * <p>One per query, created once the FROM and GROUP BY clauses are bound; collects the query's aggregates; not
 * thread-safe.
 */
final class ExpressionBinder {

    /** Where an expression stands, which decides what its column names and aggregate calls mean. */
    enum Place {
        /** WHERE: a column name is the row's value; aggregates are refused. */
        ROW,
        /** SELECT, HAVING, ORDER BY: a column name must be a group key; aggregates are allowed. */
        OUTPUT,
        /** An aggregate's argument: a column name is the row's value; aggregates are refused. */
        AGGREGATE_ARGUMENT
    }

    private final Scope scope;
    private final List<Expr> groupKeys;
    private final AggregateBinder aggregates;
    private int depth;
    private Place scalarPlace = Place.ROW;
    /** Whether the literal being bound is a comparison's operand, which may have more than 18 digits. */
    private boolean compared;

    private final ScalarBinder scalars = new ScalarBinder(o -> bind(o, scalarPlace), o -> condition(o, scalarPlace));

    /** @param groupKeys the query's group keys (columns or expressions of one column), in order; never changed */
    ExpressionBinder(Scope scope, List<Expr> groupKeys) {
        this.scope = scope;
        this.groupKeys = groupKeys;
        this.aggregates = new AggregateBinder(
                arg -> bind(arg, Place.AGGREGATE_ARGUMENT), cond -> condition(cond, Place.AGGREGATE_ARGUMENT));
    }

    /** The distinct aggregates bound so far, in the order first met; {@link Expr.AggRef}s index into it. */
    List<Expr.Agg> aggregates() {
        return aggregates.bound();
    }

    /** The column name of an output bound by this binder (see {@link AggregateBinder#nameOf}). */
    String nameOf(Expr bound) {
        return aggregates.nameOf(bound);
    }

    /**
     * Binds {@code e}, which must be a condition (a predicate; a BOOLEAN value {@code b}, bound as {@code b = true},
     * which is TRUE, FALSE or NULL just as {@code b} is; or the NULL literal, the condition NULL on every row, as in
     * {@code WHERE NULL OR a > 1}), else 42804.
     */
    Expr condition(SqlNode e, Place place) {
        Expr p = bind(e, place);
        if (p.type() == ColumnType.BOOLEAN) {
            return new Expr.Compare(Expr.CompareOp.EQ, p, new Expr.Literal(1L, ColumnType.BOOLEAN));
        }
        if (NullConstant.is(p)) {
            return NullConstant.unknown();
        }
        if (!Expr.isPredicate(p)) {
            throw bindError(e, "42804", "expected a condition: " + p.text());
        }
        return p;
    }

    /** Binds {@code e} standing at {@code place}; 54001 when this call nests deeper than {@link SqlBinder#MAX_DEPTH}. */
    Expr bind(SqlNode e, Place place) {
        if (++depth > SqlBinder.MAX_DEPTH) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54001",
                    "expression nested too" + " deeply: more than " + SqlBinder.MAX_DEPTH
                            + " levels — split it or use IN (...)",
                    at(e),
                    null);
        }
        Place outer = scalarPlace;
        scalarPlace = place;
        try {
            Expr key = place == Place.OUTPUT ? groupKeyExpression(e) : null;
            if (key != null) {
                return key;
            }
            return switch (e.getKind()) {
                case IDENTIFIER -> columnReference(e, place);
                case LITERAL -> LiteralBinder.literal((SqlLiteral) e, compared);
                case CAST -> cast((SqlCall) e, place);
                case PLUS, MINUS, TIMES, DIVIDE -> arithmetic((SqlCall) e, place);
                case MINUS_PREFIX -> negation((SqlCall) e, place);
                case PLUS_PREFIX -> unaryPlus((SqlCall) e, place);
                case SUM, COUNT, MIN, MAX, AVG -> aggregates.bind((SqlCall) e, AggregateBinder.kind(e), place);
                case OTHER_FUNCTION -> function((SqlCall) e, place);
                case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                    comparison((SqlCall) e, place);
                case IN, NOT_IN -> inList((SqlCall) e, place);
                case BETWEEN -> between((SqlCall) e, place);
                case AND, OR -> andOr(e, place);
                case NOT -> not((SqlCall) e, place);
                case IS_NULL, IS_NOT_NULL ->
                    new Expr.IsNull(bind(((SqlCall) e).operand(0), place), e.getKind() == SqlKind.IS_NOT_NULL);
                case IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> isTruth((SqlCall) e, place);
                case EXTRACT -> scalars.extract((SqlCall) e);
                case TRIM -> scalars.trim((SqlCall) e);
                case LIKE -> scalars.like((SqlCall) e);
                case COALESCE -> scalars.named((SqlCall) e, "coalesce");
                case MOD -> scalars.named((SqlCall) e, "%");
                case FILTER -> aggregates.bindFiltered((SqlCall) e, place);
                case NULLIF -> scalars.named((SqlCall) e, "nullif");
                case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> scalars.distinct((SqlCall) e);
                case CASE -> caseOf((SqlCase) e, place);
                case OTHER -> other((SqlCall) e);
                default -> {
                    if (e instanceof SqlCall call && call.getOperator() instanceof org.apache.calcite.sql.SqlFunction) {
                        yield scalars.function(call, call.getOperator().getName());
                    }
                    throw unsupported(e, describe(e));
                }
            };
        } finally {
            scalarPlace = outer;
            depth--;
        }
    }

    private Expr columnReference(SqlNode e, Place place) {
        Expr.Column c = scope.column(e);
        if (place != Place.OUTPUT) {
            return c;
        }
        int k = groupKeys.indexOf(c);
        if (k < 0) {
            throw bindError(e, "42803", "column must be in GROUP BY or inside an aggregate: column=" + c.name());
        }
        return new Expr.KeyRef(k, c.type(), c.name(), c.scale(), c.precision(), c.declared());
    }

    private Expr arithmetic(SqlCall call, Place place) {
        if (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS) {
            call.setOperand(0, IntervalBinder.asLiteral(call.operand(0)));
            call.setOperand(1, IntervalBinder.asLiteral(call.operand(1)));
        }
        if ((call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS)
                && IntervalBinder.involvesInterval(call)) {
            SqlNode value = call.operand(0) instanceof org.apache.calcite.sql.SqlIntervalLiteral
                    ? call.operand(1)
                    : call.operand(0);
            return IntervalBinder.bind(call, bind(value, place));
        }
        Expr boundLeft = bind(call.operand(0), place);
        Expr boundRight = bind(call.operand(1), place);
        Expr days = IntervalBinder.dateplusDays(call, boundLeft, boundRight);
        if (days != null) {
            return days;
        }
        Expr difference = IntervalBinder.dateMinusDate(call, boundLeft, boundRight);
        if (difference != null) {
            return difference;
        }
        ParameterMarkers.met(boundLeft, boundRight);
        ParameterMarkers.met(boundRight, boundLeft);
        Expr l = numeric(call.operand(0), boundLeft);
        Expr r = numeric(call.operand(1), boundRight);
        char op = switch (call.getKind()) {
            case PLUS -> '+';
            case MINUS -> '-';
            case TIMES -> '*';
            default -> '/';
        };
        List<Expr> operands = DecimalRules.arithmetic(call, op, l, r);
        Expr.Arith arith = new Expr.Arith(op, operands.get(0), operands.get(1));
        return NullConstant.is(l) || NullConstant.is(r) ? NullConstant.typed(arith.type(), arith.scale()) : arith;
    }

    private Expr negation(SqlCall call, Place place) {
        SqlNode operand = call.operand(0);
        if (operand instanceof SqlNumericLiteral num
                && num.isExact()
                && num.bigDecimalValue()
                        .equals(BigDecimal.valueOf(Long.MIN_VALUE).negate())) {
            // -9223372036854775808: the one BIGINT whose magnitude is no BIGINT
            return new Expr.Literal(Long.MIN_VALUE, ColumnType.LONG);
        }
        Expr x = numeric(operand, bind(operand, place));
        if (x instanceof Expr.Literal lit) {
            if (lit.type() == ColumnType.LONG && (Long) lit.value() == Long.MIN_VALUE) {
                throw bindError(call, "22003", "BIGINT overflow in -(" + Long.MIN_VALUE + ")");
            }
            return lit.type() == ColumnType.LONG
                    ? new Expr.Literal(-(Long) lit.value(), ColumnType.LONG, lit.scale())
                    : new Expr.Literal(-(Double) lit.value(), ColumnType.DOUBLE);
        }
        return new Expr.Neg(x);
    }

    private Expr unaryPlus(SqlCall call, Place place) {
        SqlNode operand = call.operand(0);
        return numeric(operand, bind(operand, place));
    }

    /** A call of a function by name: an aggregate, else a scalar function. */
    private Expr function(SqlCall call, Place place) {
        Expr.AggKind k = AggregateBinder.kind(call);
        if (k == null) {
            return scalars.function(call, call.getOperator().getName());
        }
        return aggregates.bind(call, k, place);
    }

    /**
     * {@code CAST(x AS type)} and {@code x::type}: a date literal as before, else a conversion of a value to TEXT,
     * BIGINT, DOUBLE, DATE, BOOLEAN or TIMESTAMP (evaluated per code, like every function).
     */
    private Expr cast(SqlCall call, Place place) {
        String type = ((org.apache.calcite.sql.SqlDataTypeSpec) call.operand(1))
                .getTypeName()
                .getSimple()
                .toUpperCase(java.util.Locale.ROOT);
        Expr e = castValue(call, place, type);
        int bits = switch (type) {
            case "INTEGER", "INT", "INT4" -> 32;
            case "SMALLINT", "INT2" -> 16;
            case "TINYINT", "INT1" -> 8;
            default -> 64;
        };
        if (bits == 64 || e.type() != ColumnType.LONG) {
            return e;
        }
        if (e instanceof Expr.Literal lit && lit.value() instanceof Long l) {
            io.numacube.engine.plan.ScalarFunctions.apply("int_range", List.of(l, (long) bits));
            return e;
        }
        // a value outside the narrower type's range is DuckDB's conversion error, never a BIGINT answer
        return new Expr.Call("int_range", List.of(e, new Expr.Literal((long) bits, ColumnType.LONG)), ColumnType.LONG);
    }

    private Expr castValue(SqlCall call, Place place, String type) {
        SqlNode v = call.operand(0);
        if (v instanceof org.apache.calcite.sql.SqlCharStringLiteral s
                && type.equals("DATE")
                && ParameterMarkers.bound(s.getValueAs(String.class)) == null) {
            return LiteralBinder.cast(call);
        }
        if (type.equals("DECIMAL") || type.equals("NUMERIC") || type.equals("DEC")) {
            Expr bound = bind(v, place);
            AssignmentCastOperator.check(call, bound, type);
            return decimalCast(call, bound);
        }
        String name = switch (type) {
            case "VARCHAR", "TEXT", "STRING", "CHAR" -> "cast_text";
            case "BIGINT", "INTEGER", "INT", "SMALLINT", "TINYINT", "INT8", "INT4", "INT2", "INT1" -> "cast_bigint";
            case "DOUBLE", "FLOAT", "REAL", "FLOAT8", "FLOAT4" -> "cast_double";
            case "DATE" -> "cast_date";
            case "TIMESTAMP", "DATETIME" -> "cast_timestamp";
            case "BOOLEAN", "BOOL" -> "cast_boolean";
            default -> throw unsupported(call, "CAST to " + type);
        };
        Expr x = bind(v, place);
        AssignmentCastOperator.check(call, x, type);
        if (Expr.isPredicate(x)) {
            x = Projections.asBoolean(x);
        }
        if (NullConstant.is(x)) {
            // CAST(NULL AS DATE) is a DATE NULL, as in DuckDB (a scalar subquery of no row is one)
            ParameterMarkers.met(x, castType(name), 0);
            return NullConstant.typed(castType(name), 0);
        }
        if (x instanceof Expr.Literal lit && lit.scale() > 0 && name.equals("cast_bigint")) {
            // a DECIMAL literal rounds half away from zero, as a DECIMAL column does (a DOUBLE rounds half to even)
            return new Expr.Literal(
                    java.math.BigDecimal.valueOf((Long) lit.value(), lit.scale())
                            .setScale(0, java.math.RoundingMode.HALF_UP)
                            .longValue(),
                    ColumnType.LONG);
        }
        if (x instanceof Expr.Literal lit && lit.scale() > 0) {
            x = name.equals("cast_text")
                    ? new Expr.Literal(
                            java.math.BigDecimal.valueOf((Long) lit.value(), lit.scale())
                                    .toPlainString(),
                            ColumnType.STRING)
                    : DecimalRules.toDouble(lit);
        }
        if (x instanceof Expr.Literal) {
            // typed as a column's CAST is, so that a CAST the engine cannot do is a bind error at the call, and
            // evaluated as that call (a BOOLEAN's text is true or false, not its value 1 or 0)
            Expr typed = scalars.typedCall(call, name, List.of(x));
            ColumnType t = typed.type();
            Object value = literalValue(typed);
            return new Expr.Literal(
                    t == ColumnType.DOUBLE && value instanceof Long l ? (Object) l.doubleValue() : value, t);
        }
        return scalars.typedCall(call, name, List.of(x));
    }

    /** The type a cast function gives. */
    private static ColumnType castType(String castFunction) {
        return switch (castFunction) {
            case "cast_text" -> ColumnType.STRING;
            case "cast_double" -> ColumnType.DOUBLE;
            case "cast_date" -> ColumnType.DATE;
            case "cast_timestamp" -> ColumnType.TIMESTAMP;
            case "cast_boolean" -> ColumnType.BOOLEAN;
            default -> ColumnType.LONG;
        };
    }

    /** The value of a call whose arguments are all literals (or such calls). */
    private static Object literalValue(Expr e) {
        if (e instanceof Expr.Literal lit) {
            return lit.value();
        }
        Expr.Call c = (Expr.Call) e;
        List<Object> args = new java.util.ArrayList<>();
        for (Expr a : c.args()) {
            args.add(literalValue(a));
        }
        return io.numacube.engine.plan.ScalarFunctions.apply(c, args);
    }

    /**
     * {@code CAST(x AS DECIMAL(p,s))}: a DECIMAL of at most s digits after the point raised to s exactly (p checked
     * when the value is known), anything else converted value by value, rounding half away from zero.
     */
    private Expr decimalCast(SqlCall call, Expr x) {
        org.apache.calcite.sql.SqlDataTypeSpec spec = (org.apache.calcite.sql.SqlDataTypeSpec) call.operand(1);
        var basic = (org.apache.calcite.sql.SqlBasicTypeNameSpec) spec.getTypeNameSpec();
        int p = basic.getPrecision() < 0 ? 18 : basic.getPrecision();
        int sc = basic.getPrecision() < 0 ? 3 : Math.max(basic.getScale(), 0);
        io.numacube.engine.schema.ColumnSpec target;
        try {
            target = io.numacube.engine.schema.ColumnSpec.parse("cast", "DECIMAL(" + p + "," + sc + ")");
        } catch (NumacubeException e) {
            throw bindError(call, "22003", e.getMessage().replace("column=cast ", ""));
        }
        ParameterMarkers.met(x, ColumnType.LONG, target.scale());
        Expr.Literal from = new Expr.Literal((long) x.scale(), ColumnType.LONG);
        Expr converted = scalars.typedCall(
                call,
                "cast_decimal",
                List.of(
                        x,
                        from,
                        new Expr.Literal((long) target.precision(), ColumnType.LONG),
                        new Expr.Literal((long) target.scale(), ColumnType.LONG)));
        if (x instanceof Expr.Literal lit) {
            Object value = io.numacube.engine.plan.ScalarFunctions.apply(
                    (Expr.Call) converted, java.util.Arrays.asList(lit.value(), (long) x.scale(), (long) p, (long) sc));
            return new Expr.Literal(value, ColumnType.LONG, sc, target.precision());
        }
        return converted;
    }

    /** An operator of kind OTHER: {@code ||}, else refused. */
    private Expr other(SqlCall call) {
        if ("||".equals(call.getOperator().getName())) {
            return scalars.named(call, "||");
        }
        throw unsupported(call, describe(call));
    }

    private Expr caseOf(SqlCase c, Place place) {
        SqlNode value = c.getValueOperand();
        return scalars.caseOf(c, when -> {
            Expr x = bind(value, place);
            Expr v = coerce(when, bind(when, place), x);
            x = coerce(value, x, v);
            List<Expr> u = DecimalRules.unify(when, x, v);
            comparable(when, u.get(0), u.get(1));
            return new Expr.Compare(Expr.CompareOp.EQ, u.get(0), u.get(1));
        });
    }

    /**
     * In SELECT, HAVING and ORDER BY: the group key that {@code e} spells (an expression of GROUP BY, {@code
     * year(d)}, bound at row level and found among the keys; a condition as its BOOLEAN value), else null.
     */
    private Expr groupKeyExpression(SqlNode e) {
        if (!(e instanceof SqlCall) || groupKeys.stream().allMatch(k -> k instanceof Expr.Column)) {
            return null;
        }
        Expr row;
        try {
            row = bind(e, Place.ROW);
        } catch (NumacubeException notARowExpression) {
            return null;
        }
        String text = row.text();
        if (Expr.isPredicate(row) && !groupKeys.contains(row)) {
            // GROUP BY v > 10 keys the condition's BOOLEAN value (GroupByBinder), named as the condition
            row = Projections.asBoolean(row);
        }
        int k = groupKeys.indexOf(row);
        return k < 0 ? null : new Expr.KeyRef(k, row.type(), text, row.scale());
    }

    private Expr comparison(SqlCall call, Place place) {
        Expr l = operand(call.operand(0), place);
        Expr r = operand(call.operand(1), place);
        Expr.CompareOp op = switch (call.getKind()) {
            case EQUALS -> Expr.CompareOp.EQ;
            case NOT_EQUALS -> Expr.CompareOp.NE;
            case LESS_THAN -> Expr.CompareOp.LT;
            case LESS_THAN_OR_EQUAL -> Expr.CompareOp.LE;
            case GREATER_THAN -> Expr.CompareOp.GT;
            default -> Expr.CompareOp.GE;
        };
        l = coerce(call.operand(0), l, r);
        r = coerce(call.operand(1), r, l);
        comparable(call, l, r);
        if (NullConstant.is(l) || NullConstant.is(r)) {
            return NullConstant.unknown();
        }
        return IntegerComparisons.compare(call, call.operand(0), call.operand(1), op, l, r);
    }

    /**
     * A comparison's operand: a number literal of more than 18 digits there (or its negation) is bound as a DOUBLE,
     * which {@link IntegerComparisons} then decides exactly; elsewhere such a literal is refused.
     */
    private Expr operand(SqlNode n, Place place) {
        boolean literal = n instanceof SqlLiteral
                || n.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) n).operand(0) instanceof SqlLiteral;
        boolean outer = compared;
        compared = literal;
        try {
            return bind(n, place);
        } finally {
            compared = outer;
        }
    }

    /** {@code x [NOT] IN (literal, ...)}, or of other values ({@link #inExpressions}). */
    private Expr inList(SqlCall call, Place place) {
        if (call.operand(1) instanceof KeySetLiteral keys) {
            return inKeys(call, keys, place);
        }
        Expr x = bind(call.operand(0), place);
        if (!(call.operand(1) instanceof SqlNodeList list)) {
            throw unsupported(call.operand(1), "IN with a subquery (list literal values)");
        }
        List<Expr.Literal> values = new ArrayList<>();
        List<SqlNode> nodes = new ArrayList<>();
        boolean withNull = false;
        for (SqlNode v : list) {
            Expr b = coerce(v, operand(v, place), x);
            if (NullConstant.is(b)) {
                withNull = true;
                continue;
            }
            nodes.add(v);
            if (!(b instanceof Expr.Literal)) {
                return inExpressions(call, list, place);
            }
            Expr.Literal lit = (Expr.Literal) b;
            comparable(v, x, lit);
            values.add(lit);
        }
        boolean negated = call.getKind() == SqlKind.NOT_IN;
        if (withNull) {
            // x IN (v, NULL) is true where x is a v, else NULL; x NOT IN (v, NULL) is false or NULL, never true
            Expr unknown = NullConstant.unknown();
            if (values.isEmpty()) {
                return unknown;
            }
            Expr rest = inValues(call, x, values, negated, nodes);
            return negated ? new Expr.And(List.of(rest, unknown)) : new Expr.Or(List.of(rest, unknown));
        }
        return inValues(call, x, values, negated, nodes);
    }

    /**
     * {@code x [NOT] IN keys} ({@link KeySetLiteral}): an integer x is tested against the set itself; any other x
     * against the keys written as literals, bound as an IN list (the same answer, one literal per key).
     */
    private Expr inKeys(SqlCall call, KeySetLiteral keys, Place place) {
        Expr x = bind(call.operand(0), place);
        boolean negated = call.getKind() == SqlKind.NOT_IN;
        if (x.type() != null && Expr.isInteger(x.type()) && x.scale() == 0) {
            return new Expr.In(x, List.of(), negated, keys.keys());
        }
        SqlNodeList list = new SqlNodeList(keys.getParserPosition());
        for (long k : keys.keys().keys()) {
            list.add(SqlLiteral.createExactNumeric(Long.toString(k), keys.getParserPosition()));
        }
        SqlCall listed = (SqlCall) call.getOperator().createCall(call.getParserPosition(), call.operand(0), list);
        return inList(listed, place);
    }

    /**
     * {@code x [NOT] IN (v, ...)} with a value that is not a literal (a column, an expression): {@code x = v OR ...}
     * ({@code x <> v AND ...} for NOT IN), which is its definition in three-valued logic; each comparison bound as any
     * other, so it is refused where that comparison would be (two text columns).
     */
    private Expr inExpressions(SqlCall call, SqlNodeList list, Place place) {
        boolean negated = call.getKind() == SqlKind.NOT_IN;
        List<Expr> terms = new ArrayList<>();
        for (SqlNode v : list) {
            SqlNode cmp = (negated ? SqlStdOperatorTable.NOT_EQUALS : SqlStdOperatorTable.EQUALS)
                    .createCall(v.getParserPosition(), call.operand(0), v);
            terms.add(condition(cmp, place));
        }
        if (terms.size() == 1) {
            return terms.get(0);
        }
        return negated ? new Expr.And(terms) : new Expr.Or(terms);
    }

    private static Expr inValues(
            SqlCall call, Expr x, List<Expr.Literal> values, boolean negated, List<SqlNode> nodes) {
        Expr integerIn = IntegerComparisons.in(nodes, x, values, negated);
        if (integerIn != null) {
            return integerIn;
        }
        if (DecimalRules.isDecimal(x) || values.stream().anyMatch(DecimalRules::isDecimal)) {
            List<Expr> all = new ArrayList<>(values);
            all.add(0, x);
            all = DecimalRules.unify(call, all);
            x = all.get(0);
            values = all.subList(1, all.size()).stream()
                    .map(e -> (Expr.Literal) e)
                    .toList();
        }
        return new Expr.In(x, values, negated);
    }

    private Expr between(SqlCall call, Place place) {
        SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
        if (op.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            return symmetricBetween(call, op.isNegated(), place);
        }
        Expr x = bind(call.operand(0), place);
        Expr lo = coerce(call.operand(1), operand(call.operand(1), place), x);
        Expr hi = coerce(call.operand(2), operand(call.operand(2), place), x);
        x = NullConstant.like(x, NullConstant.is(lo) ? hi : lo);
        if (NullConstant.is(lo) || NullConstant.is(hi)) {
            return betweenNull(call, x, lo, hi, op.isNegated());
        }
        Expr exact = IntegerComparisons.between(call, call.operand(1), call.operand(2), x, lo, hi, op.isNegated());
        if (exact != null) {
            comparable(call, x, lo);
            comparable(call, x, hi);
            return exact;
        }
        List<Expr> u = DecimalRules.unify(call, List.of(x, lo, hi));
        comparable(call, u.get(0), u.get(1));
        comparable(call, u.get(0), u.get(2));
        return new Expr.Between(u.get(0), u.get(1), u.get(2), op.isNegated());
    }

    /**
     * {@code x BETWEEN SYMMETRIC a AND b}: {@code x BETWEEN a AND b OR x BETWEEN b AND a}, and its NOT form {@code x NOT
     * BETWEEN a AND b AND x NOT BETWEEN b AND a}, which is PostgreSQL's definition in three-valued logic.
     */
    private Expr symmetricBetween(SqlCall call, boolean negated, Place place) {
        SqlOperator asymmetric = negated ? SqlStdOperatorTable.NOT_BETWEEN : SqlStdOperatorTable.BETWEEN;
        SqlParserPos pos = call.getParserPosition();
        Expr one = between(asymmetric.createCall(pos, call.operand(0), call.operand(1), call.operand(2)), place);
        Expr other = between(asymmetric.createCall(pos, call.operand(0), call.operand(2), call.operand(1)), place);
        return negated ? new Expr.And(List.of(one, other)) : new Expr.Or(List.of(one, other));
    }

    /**
     * {@code x [NOT] BETWEEN lo AND hi} where a bound is the NULL literal: {@code x >= lo AND x <= hi} with the NULL
     * bound's comparison {@link NullConstant#unknown() unknown}, so false where the other bound fails, else NULL.
     */
    private static Expr betweenNull(SqlCall call, Expr x, Expr lo, Expr hi, boolean negated) {
        comparable(call, x, lo);
        comparable(call, x, hi);
        List<Expr> terms = new ArrayList<>(List.of(NullConstant.unknown()));
        if (!NullConstant.is(lo)) {
            terms.add(IntegerComparisons.compare(call, call.operand(0), call.operand(1), Expr.CompareOp.GE, x, lo));
        }
        if (!NullConstant.is(hi)) {
            terms.add(IntegerComparisons.compare(call, call.operand(0), call.operand(2), Expr.CompareOp.LE, x, hi));
        }
        Expr within = terms.size() == 1 ? terms.getFirst() : new Expr.And(terms);
        return negated ? new Expr.Not(within) : within;
    }

    /**
     * {@code p IS [NOT] TRUE|FALSE}, never NULL: {@code p IS TRUE} is {@code p IS NOT NULL AND p}, {@code p IS FALSE}
     * is {@code p IS NOT NULL AND NOT p}, and the NOT forms their negations.
     */
    private Expr isTruth(SqlCall call, Place place) {
        Expr p = condition(call.operand(0), place);
        boolean wantTrue = call.getKind() == SqlKind.IS_TRUE || call.getKind() == SqlKind.IS_NOT_TRUE;
        Expr is = new Expr.And(List.of(new Expr.IsNull(p, true), wantTrue ? p : new Expr.Not(p)));
        return call.getKind() == SqlKind.IS_NOT_TRUE || call.getKind() == SqlKind.IS_NOT_FALSE ? new Expr.Not(is) : is;
    }

    /** A chain of AND or of OR, bound as one n-ary term. */
    private Expr andOr(SqlNode e, Place place) {
        List<Expr> terms = new ArrayList<>();
        for (SqlNode operand : chain(e)) {
            terms.add(condition(operand, place));
        }
        return e.getKind() == SqlKind.AND ? new Expr.And(terms) : new Expr.Or(terms);
    }

    private Expr not(SqlCall call, Place place) {
        SqlNode operand = call.operand(0);
        int nots = 1;
        while (operand.getKind() == SqlKind.NOT) {
            // NOT NOT p is p under three-valued logic: bind a run of NOTs without recursing per NOT
            operand = ((SqlCall) operand).operand(0);
            nots++;
        }
        Expr t = condition(operand, place);
        return nots % 2 == 0 ? t : new Expr.Not(t);
    }

    /** The operands of a chain of one associative operator (AND or OR), flattened without recursion, so that
     * a thousand-term chain neither nests the bound expression nor the binder's stack. */
    private static List<SqlNode> chain(SqlNode e) {
        List<SqlNode> out = new ArrayList<>();
        ArrayDeque<SqlNode> todo = new ArrayDeque<>();
        todo.push(e);
        while (!todo.isEmpty()) {
            SqlNode n = todo.pop();
            if (n.getKind() == e.getKind() && n instanceof SqlCall call) {
                List<SqlNode> ops = call.getOperandList();
                for (int i = ops.size() - 1; i >= 0; i--) {
                    todo.push(ops.get(i));
                }
            } else {
                out.add(n);
            }
        }
        return out;
    }

    private static String describe(SqlNode e) {
        if (e instanceof SqlCall call) {
            return "operator or function " + call.getOperator().getName() + " (" + e.getKind() + ")";
        }
        return e.getKind().toString();
    }
}
