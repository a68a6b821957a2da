package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.at;
import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.util.DateString;

/**
 * Turns SQL text into a {@link LogicalQuery}: Apache Calcite's parser builds the syntax tree, this class resolves
 * names against the catalog, checks types and the supported shape, and collects the aggregates. Calcite's validator
 * and optimizer are not used.
 *
 * <p>Supported: {@code SELECT items FROM fact [alias] [[INNER] JOIN lookup [alias] USING (k) | ON a.k = b.k]
 * [WHERE p] [GROUP BY dims (names, aliases, ordinals)] [HAVING p] [ORDER BY names, aliases, ordinals or expressions
 * [ASC|DESC] [NULLS FIRST|LAST]] [LIMIT n] [OFFSET m]}; predicates {@code = <> < <= > >= [NOT] IN [NOT] BETWEEN AND OR
 * NOT}; {@code + - * /}; SUM, COUNT, COUNT(*), MIN, MAX, AVG over numeric expressions of measures, INT dimensions and
 * lookup columns. Anything else is refused with INVALID_INPUT naming the construct and its line and column; parse
 * errors are SYNTAX; unknown or ambiguous names and type mismatches are BIND. Identifiers are case-insensitive.
 *
 * <p>Stateless; thread-safe.
 */
public final class SqlBinder {

    /** Where table schemas come from. */
    @FunctionalInterface
    public interface Catalog {
        Optional<TableSchema> schema(String table);
    }

    /** The deepest expression nesting bound (DuckDB's default max_expression_depth); AND/OR chains and runs of NOT
     * are flattened first and do not count per term. */
    public static final int MAX_DEPTH = 1000;

    private SqlBinder() {}

    /** Parses and binds {@code sql}. */
    public static LogicalQuery bind(String sql, Catalog catalog) {
        if (sql != null && sql.length() > SqlTextParser.BIG_STACK_TEXT) {
            return SqlTextParser.onBigStack(() -> new Binding(catalog).bindQuery(parse(sql)));
        }
        return new Binding(catalog).bindQuery(parse(sql));
    }

    /** Loads and initialises the parser's classes (about half a second the first time), so the first query does not
     * pay for it. Safe to call from any thread; failures are ignored. */
    public static void warmUp() {
        try {
            parse("SELECT k, SUM(v) FROM t JOIN l USING (k) WHERE d BETWEEN DATE '2025-01-01' AND DATE '2025-02-01'"
                    + " GROUP BY k ORDER BY 2 DESC LIMIT 1");
        } catch (RuntimeException e) {
            // a warm-up only
        }
    }

    /** Parses one query (a trailing semicolon is allowed). */
    public static SqlNode parse(String sql) {
        return SqlTextParser.parse(sql);
    }

    /** Name resolution and collected state of one query. */
    private static final class Binding {
        private final Catalog catalog;
        private Scope scope;
        private final List<Expr.Column> groupKeys = new ArrayList<>();
        private final List<Expr.Agg> aggregates = new ArrayList<>();
        private int depth;

        Binding(Catalog catalog) {
            this.catalog = catalog;
        }

        LogicalQuery bindQuery(SqlNode root) {
            SqlNodeList orderList = null;
            SqlNode offset = null;
            SqlNode fetch = null;
            SqlNode q = root;
            if (q instanceof SqlOrderBy ob) {
                orderList = ob.orderList;
                offset = ob.offset;
                fetch = ob.fetch;
                q = ob.query;
            }
            if (!(q instanceof SqlSelect select)) {
                throw unsupported(q, q.getKind() + " (only a single SELECT)");
            }
            if (select.getOrderList() != null && !select.getOrderList().isEmpty()) {
                orderList = select.getOrderList();
            }
            if (select.getOffset() != null) {
                offset = select.getOffset();
            }
            if (select.getFetch() != null) {
                fetch = select.getFetch();
            }
            if (select.isDistinct()) {
                throw unsupported(select, "SELECT DISTINCT (use GROUP BY)");
            }
            if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
                throw unsupported(select.getWindowList(), "WINDOW");
            }
            if (select.getQualify() != null) {
                throw unsupported(select.getQualify(), "QUALIFY");
            }
            if (select.getFrom() == null) {
                throw unsupported(select, "SELECT without FROM");
            }
            scope = new FromClauseBinder(catalog).bind(select.getFrom());
            if (select.getGroup() != null) {
                for (SqlNode g : select.getGroup()) {
                    bindGroupKey(g, select.getSelectList());
                }
            }
            Expr where = select.getWhere() == null ? null : predicate(select.getWhere(), false);
            List<LogicalQuery.Output> outputs = new ArrayList<>();
            for (SqlNode item : select.getSelectList()) {
                outputs.add(bindOutput(item));
            }
            Expr having = select.getHaving() == null ? null : predicate(select.getHaving(), true);
            if (having != null && select.getGroup() == null && aggregates.isEmpty()) {
                throw unsupported(select.getHaving(), "HAVING without GROUP BY or aggregates");
            }
            if (aggregates.isEmpty() && groupKeys.isEmpty()) {
                throw unsupported(
                        select.getSelectList(),
                        "a query without GROUP BY or aggregates (numacube answers aggregation queries)");
            }
            List<LogicalQuery.Order> order = new ArrayList<>();
            if (orderList != null) {
                for (SqlNode o : orderList) {
                    order.add(bindOrder(o, outputs));
                }
            }
            long limit = fetch == null ? -1 : count(fetch, "LIMIT");
            long off = offset == null ? 0 : count(offset, "OFFSET");
            return new LogicalQuery(
                    scope.fact().name(),
                    scope.lookup() == null ? null : scope.lookup().name(),
                    scope.factKey(),
                    scope.lookupKey(),
                    where,
                    groupKeys,
                    aggregates,
                    outputs,
                    having,
                    order,
                    limit,
                    off);
        }

        private long count(SqlNode n, String what) {
            if (n instanceof SqlNumericLiteral lit
                    && lit.isExact()
                    && lit.bigDecimalValue().scale() <= 0
                    && lit.bigDecimalValue().signum() >= 0) {
                if (lit.bigDecimalValue().toBigInteger().bitLength() > 63) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "22003",
                            what
                                    + " is too large: value="
                                    + lit.bigDecimalValue().toPlainString() + " limit="
                                    + Long.MAX_VALUE,
                            at(n),
                            null);
                }
                return lit.bigDecimalValue().longValueExact();
            }
            throw unsupported(n, what + " must be a non-negative integer literal");
        }

        private void bindGroupKey(SqlNode g, SqlNodeList selectList) {
            SqlNode target = g;
            if (g instanceof SqlNumericLiteral lit) {
                int ordinal = lit.intValue(true);
                if (ordinal < 1 || ordinal > selectList.size()) {
                    throw bindError(
                            g,
                            "42P10",
                            "GROUP BY ordinal out of range: ordinal=" + ordinal + " items=" + selectList.size());
                }
                target = stripAlias(selectList.get(ordinal - 1));
            } else if (g instanceof SqlIdentifier id && id.names.size() == 1 && !scope.hasColumn(id.getSimple())) {
                for (SqlNode item : selectList) {
                    if (item.getKind() == SqlKind.AS
                            && ((SqlIdentifier) ((SqlCall) item).operand(1))
                                    .getSimple()
                                    .equalsIgnoreCase(id.getSimple())) {
                        target = ((SqlCall) item).operand(0);
                    }
                }
            }
            if (!(target instanceof SqlIdentifier)) {
                throw unsupported(g, "GROUP BY of an expression (group by dimension columns)");
            }
            Expr.Column c = scope.column(target);
            if (c.side() == Expr.Side.LOOKUP) {
                throw unsupported(g, "GROUP BY a column of the joined table (group by the join key instead)");
            }
            if (!c.type().isDimension()) {
                throw bindError(g, "42803", "GROUP BY needs a dimension column: column=" + c.name() + " is a measure");
            }
            if (!groupKeys.contains(c)) {
                groupKeys.add(c);
            }
        }

        private static SqlNode stripAlias(SqlNode item) {
            return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        }

        private LogicalQuery.Output bindOutput(SqlNode item) {
            String alias = null;
            SqlNode e = item;
            if (item.getKind() == SqlKind.AS) {
                alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
                e = ((SqlCall) item).operand(0);
            }
            if (e instanceof SqlIdentifier id && id.isStar()) {
                throw unsupported(e, "SELECT * (name the group keys and aggregates)");
            }
            Expr bound = output(e);
            return new LogicalQuery.Output(alias != null ? alias : bound.text(), bound);
        }

        private LogicalQuery.Order bindOrder(SqlNode o, List<LogicalQuery.Output> outputs) {
            boolean desc = false;
            Boolean nullsFirst = null;
            SqlNode e = o;
            while (true) {
                if (e.getKind() == SqlKind.DESCENDING) {
                    desc = true;
                } else if (e.getKind() == SqlKind.NULLS_FIRST) {
                    nullsFirst = true;
                } else if (e.getKind() == SqlKind.NULLS_LAST) {
                    nullsFirst = false;
                } else {
                    break;
                }
                e = ((SqlCall) e).operand(0);
            }
            Expr bound = null;
            if (e instanceof SqlNumericLiteral lit) {
                int ordinal = lit.intValue(true);
                if (ordinal < 1 || ordinal > outputs.size()) {
                    throw bindError(
                            e,
                            "42P10",
                            "ORDER BY ordinal out of range: ordinal=" + ordinal + " items=" + outputs.size());
                }
                bound = outputs.get(ordinal - 1).expr();
            } else if (e instanceof SqlIdentifier id && id.names.size() == 1) {
                for (LogicalQuery.Output out : outputs) {
                    if (out.name().equalsIgnoreCase(id.getSimple())) {
                        bound = out.expr();
                        break;
                    }
                }
            }
            if (bound == null) {
                bound = output(e);
            }
            return new LogicalQuery.Order(bound, desc, nullsFirst != null && nullsFirst);
        }

        /** An output-level expression: group keys, aggregates, literals and arithmetic of them. */
        private Expr output(SqlNode e) {
            return expr(e, true, false);
        }

        private Expr predicate(SqlNode e, boolean outputLevel) {
            Expr p = expr(e, outputLevel, false);
            if (!Expr.isPredicate(p)) {
                throw bindError(e, "42804", "expected a condition: " + p.text());
            }
            return p;
        }

        /**
         * @param outputLevel true in SELECT/HAVING/ORDER BY (aggregates allowed, columns must be group keys)
         * @param inAggregate true inside an aggregate's argument
         */
        private Expr expr(SqlNode e, boolean outputLevel, boolean inAggregate) {
            if (++depth > MAX_DEPTH) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "54001",
                        "expression nested too" + " deeply: more than " + MAX_DEPTH
                                + " levels — split it or use IN (...)",
                        at(e),
                        null);
            }
            try {
                return exprAtDepth(e, outputLevel, inAggregate);
            } finally {
                depth--;
            }
        }

        private Expr exprAtDepth(SqlNode e, boolean outputLevel, boolean inAggregate) {
            switch (e.getKind()) {
                case IDENTIFIER: {
                    Expr.Column c = scope.column(e);
                    if (!outputLevel || inAggregate) {
                        return c;
                    }
                    int k = groupKeys.indexOf(c);
                    if (k < 0) {
                        throw bindError(
                                e, "42803", "column must be in GROUP BY or inside an aggregate: column=" + c.name());
                    }
                    return new Expr.KeyRef(k, c.type(), c.name());
                }
                case LITERAL:
                    return literal((SqlLiteral) e);
                case CAST:
                    return cast((SqlCall) e);
                case PLUS, MINUS, TIMES, DIVIDE: {
                    SqlCall call = (SqlCall) e;
                    Expr l = numeric(call.operand(0), expr(call.operand(0), outputLevel, inAggregate));
                    Expr r = numeric(call.operand(1), expr(call.operand(1), outputLevel, inAggregate));
                    char op = switch (e.getKind()) {
                        case PLUS -> '+';
                        case MINUS -> '-';
                        case TIMES -> '*';
                        default -> '/';
                    };
                    return new Expr.Arith(op, l, r);
                }
                case MINUS_PREFIX: {
                    SqlNode operand = ((SqlCall) e).operand(0);
                    if (operand instanceof SqlNumericLiteral num
                            && num.isExact()
                            && num.bigDecimalValue()
                                    .equals(BigDecimal.valueOf(Long.MIN_VALUE).negate())) {
                        // -9223372036854775808: the one BIGINT whose magnitude is no BIGINT
                        return new Expr.Literal(Long.MIN_VALUE, ColumnType.LONG);
                    }
                    Expr x = numeric(operand, expr(operand, outputLevel, inAggregate));
                    if (x instanceof Expr.Literal lit) {
                        return lit.type() == ColumnType.LONG
                                ? new Expr.Literal(-(Long) lit.value(), ColumnType.LONG)
                                : new Expr.Literal(-(Double) lit.value(), ColumnType.DOUBLE);
                    }
                    return new Expr.Neg(x);
                }
                case PLUS_PREFIX: {
                    SqlNode operand = ((SqlCall) e).operand(0);
                    return numeric(operand, expr(operand, outputLevel, inAggregate));
                }
                case SUM, COUNT, MIN, MAX, AVG:
                    return aggregate((SqlCall) e, aggKind(e), outputLevel, inAggregate);
                case OTHER_FUNCTION: {
                    Expr.AggKind k = aggKind(e);
                    if (k == null) {
                        throw unsupported(
                                e,
                                "function " + ((SqlCall) e).getOperator().getName()
                                        + " (aggregates: SUM, COUNT, MIN, MAX, AVG)");
                    }
                    return aggregate((SqlCall) e, k, outputLevel, inAggregate);
                }
                case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL: {
                    SqlCall call = (SqlCall) e;
                    Expr l = expr(call.operand(0), outputLevel, inAggregate);
                    Expr r = expr(call.operand(1), outputLevel, inAggregate);
                    Expr.CompareOp op = switch (e.getKind()) {
                        case EQUALS -> Expr.CompareOp.EQ;
                        case NOT_EQUALS -> Expr.CompareOp.NE;
                        case LESS_THAN -> Expr.CompareOp.LT;
                        case LESS_THAN_OR_EQUAL -> Expr.CompareOp.LE;
                        case GREATER_THAN -> Expr.CompareOp.GT;
                        default -> Expr.CompareOp.GE;
                    };
                    l = coerce(call.operand(0), l, r);
                    r = coerce(call.operand(1), r, l);
                    comparable(e, l, r);
                    return new Expr.Compare(op, l, r);
                }
                case IN, NOT_IN: {
                    SqlCall call = (SqlCall) e;
                    Expr x = expr(call.operand(0), outputLevel, inAggregate);
                    if (!(call.operand(1) instanceof SqlNodeList list)) {
                        throw unsupported(call.operand(1), "IN with a subquery (list literal values)");
                    }
                    List<Expr.Literal> values = new ArrayList<>();
                    for (SqlNode v : list) {
                        Expr b = coerce(v, expr(v, outputLevel, inAggregate), x);
                        if (!(b instanceof Expr.Literal lit)) {
                            throw unsupported(v, "IN with a non-literal value");
                        }
                        comparable(v, x, lit);
                        values.add(lit);
                    }
                    return new Expr.In(x, values, e.getKind() == SqlKind.NOT_IN);
                }
                case BETWEEN: {
                    SqlCall call = (SqlCall) e;
                    SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
                    if (op.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
                        throw unsupported(e, "BETWEEN SYMMETRIC");
                    }
                    Expr x = expr(call.operand(0), outputLevel, inAggregate);
                    Expr lo = coerce(call.operand(1), expr(call.operand(1), outputLevel, inAggregate), x);
                    Expr hi = coerce(call.operand(2), expr(call.operand(2), outputLevel, inAggregate), x);
                    comparable(e, x, lo);
                    comparable(e, x, hi);
                    return new Expr.Between(x, lo, hi, op.isNegated());
                }
                case AND, OR: {
                    List<Expr> terms = new ArrayList<>();
                    for (SqlNode operand : chain(e)) {
                        Expr t = expr(operand, outputLevel, inAggregate);
                        if (!Expr.isPredicate(t)) {
                            throw bindError(operand, "42804", "expected a condition: " + t.text());
                        }
                        terms.add(t);
                    }
                    return e.getKind() == SqlKind.AND ? new Expr.And(terms) : new Expr.Or(terms);
                }
                case NOT: {
                    SqlNode operand = ((SqlCall) e).operand(0);
                    int nots = 1;
                    while (operand.getKind() == SqlKind.NOT) {
                        // NOT NOT p is p under three-valued logic: bind a run of NOTs without recursing per NOT
                        operand = ((SqlCall) operand).operand(0);
                        nots++;
                    }
                    Expr t = expr(operand, outputLevel, inAggregate);
                    if (!Expr.isPredicate(t)) {
                        throw bindError(operand, "42804", "expected a condition: " + t.text());
                    }
                    return nots % 2 == 0 ? t : new Expr.Not(t);
                }
                default:
                    throw unsupported(e, describe(e));
            }
        }

        /** The operands of a chain of one associative operator (AND or OR), flattened without recursion, so that
         * a thousand-term chain neither nests the bound expression nor the binder's stack. */
        private static List<SqlNode> chain(SqlNode e) {
            List<SqlNode> out = new ArrayList<>();
            java.util.ArrayDeque<SqlNode> todo = new java.util.ArrayDeque<>();
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

        private static Expr.AggKind aggKind(SqlNode e) {
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

        private Expr aggregate(SqlCall call, Expr.AggKind kind, boolean outputLevel, boolean inAggregate) {
            if (!outputLevel) {
                throw unsupported(call, "an aggregate in WHERE (use HAVING)");
            }
            if (inAggregate) {
                throw unsupported(call, "an aggregate inside an aggregate");
            }
            if (call.getFunctionQuantifier() != null) {
                throw unsupported(call, call.getOperator().getName() + "(" + call.getFunctionQuantifier() + " ...)");
            }
            if (call instanceof SqlBasicCall bc && call.operandCount() != 1) {
                throw unsupported(bc, call.getOperator().getName() + " with " + call.operandCount() + " arguments");
            }
            SqlNode argNode = call.operand(0);
            Expr.Agg agg;
            if (kind == Expr.AggKind.COUNT && argNode instanceof SqlIdentifier id && id.isStar()) {
                agg = new Expr.Agg(Expr.AggKind.COUNT_STAR, null);
            } else {
                Expr arg = expr(argNode, true, true);
                if (Expr.isPredicate(arg)) {
                    throw unsupported(argNode, "a condition as an aggregate argument");
                }
                if (kind == Expr.AggKind.COUNT) {
                    agg = new Expr.Agg(Expr.AggKind.COUNT_STAR, null);
                } else if ((kind == Expr.AggKind.MIN || kind == Expr.AggKind.MAX)
                        && arg instanceof Expr.Column c
                        && c.type().isDimension()) {
                    if (c.side() != Expr.Side.FACT) {
                        throw unsupported(argNode, kind + " of a dimension of the joined table");
                    }
                    agg = new Expr.Agg(kind, arg);
                } else {
                    numeric(argNode, arg);
                    agg = new Expr.Agg(kind, arg);
                }
            }
            int i = aggregates.indexOf(agg);
            if (i < 0) {
                aggregates.add(agg);
                i = aggregates.size() - 1;
            }
            String name = kind == Expr.AggKind.COUNT
                            && agg.kind() == Expr.AggKind.COUNT_STAR
                            && !(argNode instanceof SqlIdentifier id2 && id2.isStar())
                    ? "count(" + expr(argNode, true, true).text() + ")"
                    : agg.text();
            return new Expr.AggRef(i, agg.type(), name);
        }

        private static Expr numeric(SqlNode node, Expr e) {
            ColumnType t = e.type();
            if (t != ColumnType.DOUBLE && t != ColumnType.LONG && t != ColumnType.INT) {
                throw bindError(
                        node,
                        "42804",
                        "arithmetic and SUM/AVG/MIN/MAX need numbers: " + e.text() + " is "
                                + (t == null ? "a condition" : t.name().toLowerCase(Locale.ROOT)));
            }
            return e;
        }

        /** A string literal compared with a DATE becomes a date literal. */
        private static Expr coerce(SqlNode node, Expr e, Expr other) {
            if (e instanceof Expr.Literal lit && lit.type() == ColumnType.STRING && other.type() == ColumnType.DATE) {
                try {
                    return new Expr.Literal(
                            LocalDate.parse((String) lit.value()).toEpochDay(), ColumnType.DATE);
                } catch (DateTimeParseException ex) {
                    throw bindError(node, "22007", "not a date (yyyy-mm-dd): value=" + lit.value());
                }
            }
            return e;
        }

        private static void comparable(SqlNode node, Expr a, Expr b) {
            ColumnType ta = a.type();
            ColumnType tb = b.type();
            boolean numA = ta == ColumnType.DOUBLE || ta == ColumnType.LONG || ta == ColumnType.INT;
            boolean numB = tb == ColumnType.DOUBLE || tb == ColumnType.LONG || tb == ColumnType.INT;
            if (ta == null || tb == null || !(ta == tb || (numA && numB))) {
                throw bindError(
                        node,
                        "42804",
                        "cannot compare " + name(ta) + " with " + name(tb) + ": " + a.text() + " and " + b.text());
            }
        }

        private static String name(ColumnType t) {
            return t == null ? "a condition" : t.name().toLowerCase(Locale.ROOT);
        }

        private static Expr literal(SqlLiteral lit) {
            if (lit instanceof SqlNumericLiteral num) {
                BigDecimal v = num.bigDecimalValue();
                if (num.isExact() && v.scale() <= 0) {
                    try {
                        return new Expr.Literal(v.longValueExact(), ColumnType.LONG);
                    } catch (ArithmeticException e) {
                        throw unsupported(lit, "an integer literal beyond 64 bits");
                    }
                }
                return new Expr.Literal(v.doubleValue(), ColumnType.DOUBLE);
            }
            if (lit instanceof SqlCharStringLiteral) {
                return new Expr.Literal(lit.getValueAs(String.class), ColumnType.STRING);
            }
            if (lit instanceof org.apache.calcite.sql.SqlUnknownLiteral u && u.tag.equalsIgnoreCase("DATE")) {
                try {
                    return new Expr.Literal(LocalDate.parse(u.getValue()).toEpochDay(), ColumnType.DATE);
                } catch (DateTimeParseException e) {
                    throw bindError(lit, "22007", "not a date (yyyy-mm-dd): value=" + u.getValue());
                }
            }
            if (lit instanceof org.apache.calcite.sql.SqlUnknownLiteral u) {
                throw unsupported(lit, u.tag + " literal");
            }
            if (lit instanceof SqlDateLiteral) {
                return new Expr.Literal((long) lit.getValueAs(DateString.class).getDaysSinceEpoch(), ColumnType.DATE);
            }
            throw unsupported(lit, "literal of type " + lit.getTypeName());
        }

        private static Expr cast(SqlCall call) {
            SqlNode v = call.operand(0);
            SqlDataTypeSpec type = (SqlDataTypeSpec) call.operand(1);
            String t = type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
            if (t.equals("DATE") && v instanceof SqlCharStringLiteral s) {
                try {
                    return new Expr.Literal(
                            LocalDate.parse(s.getValueAs(String.class)).toEpochDay(), ColumnType.DATE);
                } catch (DateTimeParseException e) {
                    throw bindError(v, "22007", "not a date (yyyy-mm-dd): value=" + s.getValueAs(String.class));
                }
            }
            throw unsupported(call, "CAST other than CAST('yyyy-mm-dd' AS DATE)");
        }
    }
}
