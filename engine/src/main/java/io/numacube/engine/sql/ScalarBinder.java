package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.ScalarFunctions;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;

/**
 * Binds scalar function calls, CASE, [NOT] LIKE/ILIKE and IS [NOT] DISTINCT FROM: names resolved to {@link
 * ScalarFunctions}, types checked there, errors at the call's position (42883 for an unknown function, 42804 for a
 * wrong argument). Operands are bound through the owning {@link ExpressionBinder}. One per query binder; not
 * thread-safe.
 */
final class ScalarBinder {

    /** The functions whose value of a DECIMAL is a whole DECIMAL, computed exactly ({@code decimal_ceil} ...). */
    /** The functions whose arguments are of one type, so that a text literal among them takes the others' type. */
    private static final java.util.Set<String> ONE_TYPE = java.util.Set.of("coalesce", "nullif", "greatest", "least");

    private static final java.util.Set<String> WHOLE_OF_DECIMAL = java.util.Set.of("ceil", "floor", "trunc", "sign");

    private final Function<SqlNode, Expr> operand;
    private final Function<SqlNode, Expr> condition;

    /** @param operand binds a value operand; {@code condition} a condition operand (both at the caller's place) */
    ScalarBinder(Function<SqlNode, Expr> operand, Function<SqlNode, Expr> condition) {
        this.operand = operand;
        this.condition = condition;
    }

    /** A scalar function by name (DuckDB's names; {@code substr} is {@code substring}, {@code datepart} ...). */
    Expr function(SqlCall call, String rawName) {
        String name = switch (rawName.toLowerCase(Locale.ROOT)) {
            case "substr" -> "substring";
            case "dayofmonth" -> "day";
            case "datepart" -> "date_part";
            case "datetrunc" -> "date_trunc";
            case "char_length", "character_length", "len" -> "length";
            case "weekofyear" -> "week";
            case "mod" -> "%";
            case "ceiling" -> "ceil";
            case "btrim" -> "trim";
            case "position" -> "strpos";
            case "translate3" -> "translate";
            default -> rawName.toLowerCase(Locale.ROOT);
        };
        if (!ScalarFunctions.knows(name)) {
            throw bindError(
                    call,
                    "42883",
                    "unknown function " + rawName + " (the README lists the functions and aggregates numacube runs)");
        }
        List<Expr> args = new ArrayList<>();
        for (SqlNode o : call.getOperandList()) {
            args.add(operand.apply(o));
        }
        if (rawName.equalsIgnoreCase("position")) {
            // position(sub IN s) is strpos(s, sub)
            args = args.reversed();
        }
        if (args.size() == 2 && (name.equals("trim") || name.equals("ltrim") || name.equals("rtrim"))) {
            return typed(call, name + "_chars", args);
        }
        return typed(call, name, args);
    }

    /** {@code EXTRACT(part FROM d)} (and Babel's {@code date_part('part', d)}) as {@code date_part('part', d)}. */
    Expr extract(SqlCall call) {
        // a part Calcite does not know (MICROSECONDS, YEARS, a misspelling) is a time frame of that name, whose
        // timeUnitRange is EPOCH: it is checked by its name, never read as the epoch
        String part = call.operand(0) instanceof SqlIntervalQualifier q
                ? (q.timeFrameName != null ? q.timeFrameName : q.timeUnitRange.name()).toLowerCase(Locale.ROOT)
                : ((SqlLiteral) call.operand(0)).getValueAs(String.class);
        return typed(
                call, "date_part", List.of(new Expr.Literal(part, ColumnType.STRING), operand.apply(call.operand(1))));
    }

    /** {@code TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)}: as trim/ltrim/rtrim, of spaces or of those characters. */
    Expr trim(SqlCall call) {
        SqlTrimFunction.Flag flag = ((SqlLiteral) call.operand(0)).getValueAs(SqlTrimFunction.Flag.class);
        SqlNode chars = call.operand(1);
        String name = switch (flag) {
            case LEADING -> "ltrim";
            case TRAILING -> "rtrim";
            default -> "trim";
        };
        Expr s = operand.apply(call.operand(2));
        if (chars instanceof SqlCharStringLiteral c && " ".equals(c.getValueAs(String.class))) {
            return typed(call, name, List.of(s));
        }
        return typed(call, name + "_chars", List.of(s, operand.apply(chars)));
    }

    /** {@code a || b}, COALESCE and NULLIF. */
    Expr named(SqlCall call, String name) {
        List<Expr> args = new ArrayList<>();
        for (SqlNode o : call.getOperandList()) {
            args.add(operand.apply(o));
        }
        return typed(call, name, args);
    }

    /**
     * {@code args} with each text literal read as the type of the first argument that is none ({@code coalesce(i,
     * '7')}, {@code greatest(d, '2024-01-01')}), as PostgreSQL resolves an unknown-typed literal; as they are if every
     * one is text.
     */
    private static List<Expr> quotedLiteralsTyped(SqlCall call, List<Expr> args) {
        Expr typed = args.stream()
                .filter(e -> !(e instanceof Expr.Literal l && l.type() == ColumnType.STRING) && e.type() != null)
                .findFirst()
                .orElse(null);
        return typed == null
                ? args
                : args.stream().map(e -> TypeRules.coerce(call, e, typed)).toList();
    }

    /** {@code exprs} with each NULL literal typed as the first expression that is not one (all as they are if none). */
    private static List<Expr> typedNulls(List<Expr> exprs) {
        Expr typed = exprs.stream().filter(e -> !NullConstant.is(e)).findFirst().orElse(null);
        return typed == null
                ? exprs
                : exprs.stream().map(e -> NullConstant.like(e, typed)).toList();
    }

    /** A call of a function already named and bound. */
    Expr typedCall(SqlCall call, String name, List<Expr> args) {
        return typed(call, name, args);
    }

    private static Expr typed(SqlCall call, String name, List<Expr> args) {
        args = typedNulls(args);
        if (ONE_TYPE.contains(name)) {
            args = quotedLiteralsTyped(call, args);
        }
        if (args.stream().anyMatch(DecimalRules::isDecimal)) {
            Expr special = decimalCall(call, name, args);
            if (special != null) {
                return special;
            }
            args = decimalArguments(call, name, args);
        }
        if (name.equals("cast_text") || name.equals("||") || name.equals("concat") || name.equals("concat_ws")) {
            // a BOOLEAN's values are 0 and 1; as text it is true and false, as in DuckDB; a DATE or TIMESTAMP (a
            // number of days or microseconds) concatenated is its text, as DuckDB casts it
            boolean cast = name.equals("cast_text");
            args = args.stream()
                    .map(a -> a.type() == ColumnType.BOOLEAN
                            ? new Expr.Call("boolean_text", List.of(a), ColumnType.STRING)
                            : !cast && (a.type() == ColumnType.DATE || a.type() == ColumnType.TIMESTAMP)
                                    ? new Expr.Call("temporal_text", List.of(a), ColumnType.STRING)
                                    : a)
                    .toList();
        }
        try {
            Expr.Call c = new Expr.Call(name, args, ScalarFunctions.resultType(name, args));
            return NullConstant.isNullOf(c) ? NullConstant.typed(c.type(), c.scale()) : c;
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().startsWith("unknown function") && args.stream().anyMatch(NullConstant::is)) {
                // upper(NULL): the NULL literal fits any argument, and the function of it is NULL
                return NullConstant.untyped();
            }
            if (e.getMessage().startsWith("unknown function")) {
                throw bindError(
                        call,
                        "42883",
                        "unknown function " + call.getOperator().getName()
                                + " (the README lists the functions and aggregates numacube runs)");
            }
            throw bindError(call, "42804", e.getMessage());
        }
    }

    /**
     * The call of a DECIMAL-aware form in place of {@code name(args)}: {@code round} of a DECIMAL stays a DECIMAL (of
     * the digits it keeps), CAST of one to BIGINT rounds its value; null for other calls.
     */
    private static Expr decimalCall(SqlCall call, String name, List<Expr> args) {
        Expr x = args.getFirst();
        Expr.Literal from = new Expr.Literal((long) x.scale(), ColumnType.LONG);
        if (name.equals("round") && DecimalRules.isDecimal(x)) {
            long digits = args.size() > 1 && args.get(1) instanceof Expr.Literal d && d.value() instanceof Long l
                    ? l
                    : args.size() > 1 ? -1 : 0;
            if (digits >= 0) {
                long to = Math.min(digits, x.scale());
                return new Expr.Call(
                        "decimal_round", List.of(x, from, new Expr.Literal(to, ColumnType.LONG)), ColumnType.LONG);
            }
        }
        if (WHOLE_OF_DECIMAL.contains(name) && args.size() == 1 && DecimalRules.isDecimal(x)) {
            return new Expr.Call("decimal_" + name, List.of(x, from), ColumnType.LONG);
        }
        if (name.equals("cast_bigint") && DecimalRules.isDecimal(x)) {
            return new Expr.Call("decimal_bigint", List.of(x, from), ColumnType.LONG);
        }
        return null;
    }

    /**
     * {@code args} as {@code name} takes them where one is a DECIMAL: COALESCE, NULLIF and {@code %} on one scale,
     * {@code abs} and {@code cast_decimal} (which reads the scale) as they are, text conversions as the DECIMAL's text, and every other function's DECIMAL as a DOUBLE.
     */
    private static List<Expr> decimalArguments(SqlCall call, String name, List<Expr> args) {
        return switch (name) {
            case "coalesce", "nullif", "%", "greatest", "least" -> DecimalRules.unify(call, args);
            case "abs", "cast_decimal" -> args;
            case "cast_text", "||", "concat", "concat_ws" ->
                args.stream()
                        .map(a -> DecimalRules.isDecimal(a)
                                ? (Expr) new Expr.Call(
                                        "decimal_text",
                                        List.of(a, new Expr.Literal((long) a.scale(), ColumnType.LONG)),
                                        ColumnType.STRING)
                                : a)
                        .toList();
            default -> args.stream().map(DecimalRules::toDouble).toList();
        };
    }

    /** A searched or simple CASE; a simple CASE {@code CASE x WHEN v ...} is the searched CASE of {@code x = v}. */
    Expr caseOf(SqlCase c, Function<SqlNode, Expr> comparison) {
        List<Expr> conditions = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        for (int i = 0; i < c.getWhenOperands().size(); i++) {
            SqlNode when = c.getWhenOperands().get(i);
            conditions.add(c.getValueOperand() == null ? condition.apply(when) : comparison.apply(when));
            results.add(operand.apply(c.getThenOperands().get(i)));
        }
        SqlNode elseNode = c.getElseOperand();
        Expr otherwise = elseNode == null || SqlUtilNull.isNull(elseNode) ? null : operand.apply(elseNode);
        List<Expr> every = new ArrayList<>(results);
        if (otherwise != null) {
            every.add(otherwise);
        }
        // a parameter's marker meets the results' type also in a branch whose condition folds to unknown below
        typedNulls(every);
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if (NullConstant.isUnknown(conditions.get(i))) {
                conditions.remove(i);
                results.remove(i);
            }
        }
        if (conditions.isEmpty()) {
            return otherwise != null ? otherwise : NullConstant.untyped();
        }
        List<Expr> all = new ArrayList<>(results);
        if (otherwise != null) {
            all.add(otherwise);
        }
        all = typedNulls(all);
        results = new ArrayList<>(all.subList(0, results.size()));
        otherwise = otherwise == null ? null : all.getLast();
        if (all.stream().anyMatch(DecimalRules::isDecimal)) {
            all = DecimalRules.unify(c, all);
            results = new ArrayList<>(all.subList(0, results.size()));
            otherwise = otherwise == null ? null : all.getLast();
        }
        ColumnType type;
        try {
            type = ScalarFunctions.resultType("coalesce", all);
        } catch (IllegalArgumentException e) {
            throw bindError(c, "42804", "CASE results " + e.getMessage().replace("coalesce ", ""));
        }
        return new Expr.Case(conditions, results, otherwise, type);
    }

    /** {@code x [NOT] LIKE|ILIKE 'pattern' [ESCAPE 'c']} over text. */
    Expr like(SqlCall call) {
        SqlLikeOperator op = (SqlLikeOperator) call.getOperator();
        Expr x = operand.apply(call.operand(0));
        if (x.type() != ColumnType.STRING) {
            throw bindError(call, "42883", op.getName() + " needs text: " + x.text());
        }
        if (!(call.operand(1) instanceof SqlCharStringLiteral p)) {
            throw unsupported(call.operand(1), op.getName() + " with a pattern that is not a text literal");
        }
        char escape = 0;
        if (call.operandCount() > 2) {
            String e = ((SqlCharStringLiteral) call.operand(2)).getValueAs(String.class);
            if (e.length() != 1) {
                throw bindError(call.operand(2), "22019", "the ESCAPE text must be one character: '" + e + "'");
            }
            escape = e.charAt(0);
        }
        String pattern = p.getValueAs(String.class);
        if (escape != 0 && endsWithEscape(pattern, escape)) {
            // DuckDB and PostgreSQL refuse it; matching it answered FALSE for every row
            throw bindError(
                    call.operand(1),
                    "22025",
                    "LIKE pattern must not end with escape character: pattern='" + pattern + "' escape='" + escape
                            + "'");
        }
        boolean ignoreCase = op.getName().toUpperCase(Locale.ROOT).contains("ILIKE");
        if (ignoreCase && (Character.toLowerCase(escape) != escape || Character.toUpperCase(escape) != escape)) {
            // DuckDB lower-cases the escape with the pattern ('aXb' ILIKE 'aA_b' ESCAPE 'A'), PostgreSQL does not
            throw unsupported(
                    call.operand(2),
                    "ILIKE with an ESCAPE letter that has a case: '" + escape
                            + "' (DuckDB and PostgreSQL read it differently); escape with a character such as '\\' or '!'");
        }
        return new Expr.Like(x, pattern, escape, ignoreCase, op.isNegated());
    }

    /** Whether the pattern's last character is an escape that escapes nothing. */
    private static boolean endsWithEscape(String pattern, char escape) {
        int i = 0;
        while (i < pattern.length()) {
            if (pattern.charAt(i) == escape) {
                if (i + 1 == pattern.length()) {
                    return true;
                }
                i += 2;
            } else {
                i++;
            }
        }
        return false;
    }

    /** {@code a IS [NOT] DISTINCT FROM b}. */
    Expr distinct(SqlCall call) {
        Expr l = operand.apply(call.operand(0));
        Expr r = operand.apply(call.operand(1));
        l = TypeRules.coerce(call.operand(0), l, r);
        r = TypeRules.coerce(call.operand(1), r, l);
        List<Expr> u = DecimalRules.unify(call, l, r);
        l = u.get(0);
        r = u.get(1);
        TypeRules.comparable(call, l, r);
        boolean notDistinct = call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
        if (NullConstant.is(l) || NullConstant.is(r)) {
            return new Expr.IsNull(NullConstant.is(r) ? l : r, !notDistinct);
        }
        return new Expr.IsDistinct(l, r, notDistinct);
    }

    /** Whether a node is the NULL literal. */
    static final class SqlUtilNull {
        private SqlUtilNull() {}

        static boolean isNull(SqlNode n) {
            return n instanceof SqlLiteral l && l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL;
        }
    }
}
