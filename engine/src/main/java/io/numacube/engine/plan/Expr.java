package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnType;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;

/**
 * A bound expression: names resolved to columns, types known. Row-level expressions ({@link Column},
 * {@link Literal}, {@link Arith}, {@link Neg}, predicates) appear in WHERE and inside aggregates; output-level ones
 * refer to group keys and aggregates ({@link KeyRef}, {@link AggRef}) and appear in SELECT, HAVING and ORDER BY.
 * Immutable value objects; equal expressions are {@code equals}, which the planner uses to share aggregates.
 */
public sealed interface Expr {

    /** The type of the value: dimension types, LONG or DOUBLE; BOOLEAN predicates report null. */
    ColumnType type();

    /** SQL-like text, used for column names ({@code sum(pnl * rate_to_usd)}). */
    String text();

    /**
     * For a DECIMAL value: its digits after the point, the value being its {@code long} divided by 10^scale (the
     * type is LONG or INT, and the executor computes on those longs exactly: the binder puts both sides of + and - on
     * one scale, and turns a DECIMAL into a DOUBLE before it meets one). 0 for every other value.
     */
    default int scale() {
        return 0;
    }

    /**
     * The declared precision of a DECIMAL column, of a group key that is one, or of a CAST to DECIMAL(p, s), as
     * PostgreSQL keeps a column's {@code atttypmod} in a result; 0 for every other expression (computed DECIMALs have
     * no declared precision).
     */
    default int precision() {
        return 0;
    }

    /**
     * The precision a result reports for this expression: {@link #precision()}, but 0 for a column (or a group key
     * that is one) of a temporary table whose DECIMAL precision was not declared ({@code ColumnSpec#declared}).
     */
    default int declaredPrecision() {
        return precision();
    }

    /** Which table a column is in. */
    enum Side {
        FACT,
        LOOKUP
    }

    /** The aggregate functions. */
    enum AggKind {
        SUM,
        COUNT,
        COUNT_STAR,
        /** COUNT(DISTINCT x): the distinct non-NULL values of x per group. */
        COUNT_DISTINCT,
        MIN,
        MAX,
        AVG
    }

    /** Comparison operators. */
    enum CompareOp {
        EQ("="),
        NE("<>"),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        final String sql;

        CompareOp(String sql) {
            this.sql = sql;
        }

        /** The operator of {@code NOT (a op b)} under a total order: = and <>, < and >=, <= and > swap. */
        public CompareOp negated() {
            return switch (this) {
                case EQ -> NE;
                case NE -> EQ;
                case LT -> GE;
                case LE -> GT;
                case GT -> LE;
                case GE -> LT;
            };
        }

        public boolean test(int cmp) {
            return switch (this) {
                case EQ -> cmp == 0;
                case NE -> cmp != 0;
                case LT -> cmp < 0;
                case LE -> cmp <= 0;
                case GT -> cmp > 0;
                case GE -> cmp >= 0;
            };
        }
    }

    /**
     * A column of the fact table or the lookup table; a DECIMAL column has its scale and its declared precision (0 for
     * every other column), and {@link #decimal()} says it is one (a DECIMAL(p,0) has scale 0, as an integer has, but
     * reads a quoted {@code '1.5'} as a number, not 22P02).
     */
    record Column(Side side, int index, ColumnType type, String name, int scale, int precision, boolean declared)
            implements Expr {

        public Column(Side side, int index, ColumnType type, String name) {
            this(side, index, type, name, 0, 0);
        }

        /** A column whose DECIMAL precision, if any, is declared. */
        public Column(Side side, int index, ColumnType type, String name, int scale, int precision) {
            this(side, index, type, name, scale, precision, true);
        }

        @Override
        public int declaredPrecision() {
            return declared ? precision : 0;
        }

        /** Whether the column is a DECIMAL(precision, scale). */
        public boolean decimal() {
            return precision > 0;
        }

        @Override
        public String text() {
            return name;
        }
    }

    /**
     * A constant: String (STRING), Long (LONG; DATE as epoch day; BOOLEAN as 1 or 0; TIMESTAMP as microseconds; a
     * DECIMAL as its value times 10^scale) or Double (DOUBLE).
     */
    record Literal(Object value, ColumnType type, int scale, int precision) implements Expr {

        public Literal(Object value, ColumnType type) {
            this(value, type, 0, 0);
        }

        public Literal(Object value, ColumnType type, int scale) {
            this(value, type, scale, 0);
        }

        /** The precision of a CAST of a literal to DECIMAL(p, s), folded to its value; 0 for any other literal. */
        @Override
        public int precision() {
            return precision;
        }

        @Override
        public String text() {
            if (scale > 0) {
                return java.math.BigDecimal.valueOf((Long) value, scale).toPlainString();
            }
            return switch (type) {
                case STRING -> "'" + value + "'";
                case DATE -> "DATE '" + LocalDate.ofEpochDay((Long) value) + "'";
                case BOOLEAN -> (Long) value != 0 ? "true" : "false";
                case TIMESTAMP -> "TIMESTAMP '" + io.numacube.engine.schema.Timestamps.format((Long) value) + "'";
                default -> String.valueOf(value);
            };
        }

        public double asDouble() {
            return ((Number) value).doubleValue();
        }
    }

    /**
     * {@code l op r} for op one of + - * /; LONG (exact 64-bit, overflow is an error) when both sides are integers
     * (LONG or INT) and op is not / (as DuckDB, whose / on integers gives a DOUBLE), else DOUBLE. An {@code implicit}
     * one is a conversion the binder inserted (a DECIMAL's long times a power of ten to raise its scale, or divided by
     * one to make it a DOUBLE): it prints as its left side.
     */
    record Arith(char op, Expr left, Expr right, boolean implicit) implements Expr {

        public Arith(char op, Expr left, Expr right) {
            this(op, left, right, false);
        }

        @Override
        public ColumnType type() {
            return op != '/' && isInteger(left.type()) && isInteger(right.type()) ? ColumnType.LONG : ColumnType.DOUBLE;
        }

        @Override
        public int scale() {
            if (type() != ColumnType.LONG) {
                return 0;
            }
            return op == '*' ? left.scale() + right.scale() : Math.max(left.scale(), right.scale());
        }

        @Override
        public String text() {
            return implicit ? left.text() : wrap(left) + " " + op + " " + wrap(right);
        }

        private static String wrap(Expr e) {
            return e instanceof Arith a && !a.implicit() ? "(" + e.text() + ")" : e.text();
        }
    }

    /** {@code -e}. */
    record Neg(Expr operand) implements Expr {
        @Override
        public ColumnType type() {
            return operand.type() == ColumnType.INT ? ColumnType.LONG : operand.type();
        }

        @Override
        public int scale() {
            return operand.scale();
        }

        @Override
        public String text() {
            return "-" + operand.text();
        }
    }

    /** An aggregate over a row-level argument (null for COUNT(*)). */
    record Agg(AggKind kind, Expr arg, Expr filter) implements Expr {

        /** An aggregate of every row (no FILTER clause). */
        public Agg(AggKind kind, Expr arg) {
            this(kind, arg, null);
        }

        @Override
        public ColumnType type() {
            return switch (kind) {
                case COUNT, COUNT_STAR, COUNT_DISTINCT -> ColumnType.LONG;
                case AVG -> ColumnType.DOUBLE;
                case MIN, MAX ->
                    (arg.type().isDimension() && arg.type() != ColumnType.INT) || arg.type() == ColumnType.TIMESTAMP
                            ? arg.type()
                            : arg.type() == ColumnType.LONG || arg.type() == ColumnType.INT
                                    ? ColumnType.LONG
                                    : ColumnType.DOUBLE;
                case SUM ->
                    arg.type() == ColumnType.LONG || arg.type() == ColumnType.INT ? ColumnType.LONG : ColumnType.DOUBLE;
            };
        }

        /** SUM, MIN and MAX of a DECIMAL keep its scale (AVG of one is bound over its DOUBLE value). */
        @Override
        public int scale() {
            return kind == AggKind.SUM || kind == AggKind.MIN || kind == AggKind.MAX ? arg.scale() : 0;
        }

        @Override
        public String text() {
            String call = switch (kind) {
                case COUNT_STAR -> "count_star()";
                case COUNT_DISTINCT -> "count(DISTINCT " + arg.text() + ")";
                default -> kind.name().toLowerCase(Locale.ROOT) + "(" + arg.text() + ")";
            };
            return filter == null ? call : call + " FILTER (WHERE " + filter.text() + ")";
        }
    }

    /** The i-th group key, in output expressions; {@code precision} as the key's {@link Column#precision()}, else 0. */
    record KeyRef(int key, ColumnType type, String name, int scale, int precision, boolean declared) implements Expr {

        public KeyRef(int key, ColumnType type, String name, int scale, int precision) {
            this(key, type, name, scale, precision, true);
        }

        @Override
        public int declaredPrecision() {
            return declared ? precision : 0;
        }

        public KeyRef(int key, ColumnType type, String name) {
            this(key, type, name, 0, 0);
        }

        public KeyRef(int key, ColumnType type, String name, int scale) {
            this(key, type, name, scale, 0);
        }

        @Override
        public String text() {
            return name;
        }
    }

    /** The i-th aggregate of the query, in output expressions. */
    record AggRef(int agg, ColumnType type, String name, int scale) implements Expr {

        public AggRef(int agg, ColumnType type, String name) {
            this(agg, type, name, 0);
        }

        @Override
        public String text() {
            return name;
        }
    }

    /** {@code l op r}. */
    record Compare(CompareOp op, Expr left, Expr right) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return left.text() + " " + op.sql + " " + right.text();
        }
    }

    /**
     * {@code e [NOT] IN (v, ...)}; {@code set} holds the values prepared for membership tests (derived from
     * {@code values}, so it takes no part in equality), or is a key set ({@link InValues#ofKeys}: integer keys, no
     * NULL, {@code values} empty) that stands for a semi-join's keys and equals only itself.
     */
    record In(Expr operand, List<Literal> values, boolean negated, InValues set) implements Expr {
        public In {
            values = List.copyOf(values);
            set = set != null && set.isKeySet() ? set : new InValues(values);
        }

        public In(Expr operand, List<Literal> values, boolean negated) {
            this(operand, values, negated, null);
        }

        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " NOT IN (" : " IN (")
                    + (set.isKeySet()
                            ? set.toString()
                            : String.join(
                                    ", ", values.stream().map(Literal::text).toList()))
                    + ")";
        }
    }

    /** {@code e [NOT] BETWEEN lo AND hi} (inclusive). */
    record Between(Expr operand, Expr low, Expr high, boolean negated) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " NOT BETWEEN " : " BETWEEN ") + low.text() + " AND " + high.text();
        }
    }

    /** Conjunction of two or more predicates. */
    record And(List<Expr> terms) implements Expr {
        public And {
            terms = List.copyOf(terms);
        }

        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return "(" + String.join(" AND ", terms.stream().map(Expr::text).toList()) + ")";
        }
    }

    /** Disjunction of two or more predicates. */
    record Or(List<Expr> terms) implements Expr {
        public Or {
            terms = List.copyOf(terms);
        }

        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return "(" + String.join(" OR ", terms.stream().map(Expr::text).toList()) + ")";
        }
    }

    /**
     * A scalar function of row values ({@code year(d)}, {@code upper(s)}, {@code coalesce(a, b)}...), evaluated per
     * dictionary code or per result row, never per fact row; see {@code ScalarFunctions} for the list.
     *
     * @param name the function's lower-case name
     * @param args its arguments
     * @param type its result type
     */
    record Call(String name, List<Expr> args, ColumnType type) implements Expr {

        /**
         * The conversions the binder inserts where SQL converts implicitly (a BOOLEAN as text in {@code ||}, as 0/1 in
         * SUM): they print as their operand, as DuckDB names {@code sum(flag)}.
         */
        public static final java.util.Set<String> IMPLICIT =
                java.util.Set.of("boolean_text", "boolean_int", "temporal_text", "decimal_text");

        public Call {
            args = List.copyOf(args);
        }

        /**
         * A DECIMAL result's scale: the last argument of {@code cast_decimal} and {@code decimal_round}; the first
         * argument's for the functions that return a DECIMAL argument as it is ({@code abs}, {@code coalesce},
         * {@code nullif} and {@code %}, whose arguments the binder puts on one scale); else 0.
         */
        @Override
        public int scale() {
            if (type != ColumnType.LONG && type != ColumnType.INT) {
                return 0;
            }
            return switch (name) {
                case "cast_decimal", "decimal_round" -> ((Long) ((Literal) args.getLast()).value()).intValue();
                case "abs", "coalesce", "nullif", "%", "greatest", "least" ->
                    args.getFirst().scale();
                default -> 0;
            };
        }

        /**
         * The precision a CAST to DECIMAL(p, s) declares (PostgreSQL's typmod of {@code x::numeric(6,2)}); 0 for every
         * other call.
         */
        @Override
        public int precision() {
            return name.equals("cast_decimal") && (type == ColumnType.LONG || type == ColumnType.INT)
                    ? ((Long) ((Literal) args.get(2)).value()).intValue()
                    : 0;
        }

        @Override
        public String text() {
            if (IMPLICIT.contains(name)) {
                return args.get(0).text();
            }
            if (name.equals("nullif")
                    && args.get(0) instanceof Literal
                    && args.get(0).equals(args.get(1))) {
                return "NULL";
            }
            switch (name) {
                case "decimal_round" -> {
                    return "round(" + args.get(0).text() + ", " + args.get(2).text() + ")";
                }
                case "decimal_bigint" -> {
                    return "cast_bigint(" + args.get(0).text() + ")";
                }
                case "decimal_ceil", "decimal_floor", "decimal_trunc", "decimal_sign" -> {
                    return name.substring("decimal_".length()) + "("
                            + args.get(0).text() + ")";
                }
                case "int_range" -> {
                    return args.get(0).text();
                }
                case "add_interval" -> {
                    return args.get(0).text() + " + INTERVAL (" + args.get(1).text() + " months, "
                            + args.get(2).text() + " microseconds)";
                }
                case "cast_date" -> {
                    if (DateDays.of(args.get(0)) instanceof String days) {
                        return days;
                    }
                }
                case "cast_decimal" -> {
                    return "CAST(" + args.get(0).text() + " AS DECIMAL("
                            + args.get(2).text() + "," + args.get(3).text() + "))";
                }
                case "%", "||" -> {
                    if (args.size() == 2) {
                        return infixOperand(args.get(0)) + " " + name + " " + infixOperand(args.get(1));
                    }
                }
                default -> {}
            }
            return name + "(" + String.join(", ", args.stream().map(Expr::text).toList()) + ")";
        }

        private static String infixOperand(Expr e) {
            boolean infix = e instanceof Arith a && !a.implicit()
                    || e instanceof Call c && (c.name.equals("%") || c.name.equals("||")) && c.args.size() == 2;
            return infix ? "(" + e.text() + ")" : e.text();
        }
    }

    /**
     * {@code CASE WHEN c1 THEN r1 ... ELSE e END} ({@code otherwise} null: no ELSE, so NULL). A simple CASE is bound as
     * the searched CASE of equalities.
     */
    record Case(List<Expr> conditions, List<Expr> results, Expr otherwise, ColumnType type) implements Expr {
        public Case {
            conditions = List.copyOf(conditions);
            results = List.copyOf(results);
        }

        /** The results' common scale (the binder puts every DECIMAL result on one). */
        @Override
        public int scale() {
            return type == ColumnType.LONG || type == ColumnType.INT
                    ? results.getFirst().scale()
                    : 0;
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder("CASE");
            for (int i = 0; i < conditions.size(); i++) {
                sb.append(" WHEN ")
                        .append(conditions.get(i).text())
                        .append(" THEN ")
                        .append(results.get(i).text());
            }
            if (otherwise != null) {
                sb.append(" ELSE ").append(otherwise.text());
            }
            return sb.append(" END").toString();
        }
    }

    /** {@code operand [NOT] LIKE|ILIKE pattern} with {@code %} and {@code _} (and an escape character, or 0). */
    record Like(Expr operand, String pattern, char escape, boolean ignoreCase, boolean negated) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " NOT" : "") + (ignoreCase ? " ILIKE '" : " LIKE '") + pattern + "'";
        }
    }

    /** {@code left IS [NOT] DISTINCT FROM right}: equality where NULL equals NULL; never NULL itself. */
    record IsDistinct(Expr left, Expr right, boolean negated) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return left.text() + (negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") + right.text();
        }
    }

    /** {@code operand IS NULL}, or {@code IS NOT NULL} when negated: never NULL itself. */
    record IsNull(Expr operand, boolean negated) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    /** {@code NOT p}. */
    record Not(Expr operand) implements Expr {
        @Override
        public ColumnType type() {
            return null;
        }

        @Override
        public String text() {
            return "NOT " + operand.text();
        }
    }

    /** True for the integer types (BIGINT measures and INT dimensions): their arithmetic is exact. */
    static boolean isInteger(ColumnType t) {
        return t == ColumnType.LONG || t == ColumnType.INT;
    }

    /** True for the boolean-valued nodes. */
    static boolean isPredicate(Expr e) {
        return e instanceof Compare
                || e instanceof In
                || e instanceof Between
                || e instanceof And
                || e instanceof Or
                || e instanceof Not
                || e instanceof IsNull
                || e instanceof Like
                || e instanceof IsDistinct;
    }

    /** Calls {@code visit} on this node and every node under it. */
    static void walk(Expr e, java.util.function.Consumer<Expr> visit) {
        visit.accept(e);
        switch (e) {
            case Arith a -> {
                walk(a.left(), visit);
                walk(a.right(), visit);
            }
            case Neg n -> walk(n.operand(), visit);
            case Agg g -> {
                if (g.arg() != null) {
                    walk(g.arg(), visit);
                }
                if (g.filter() != null) {
                    walk(g.filter(), visit);
                }
            }
            case Compare c -> {
                walk(c.left(), visit);
                walk(c.right(), visit);
            }
            case In i -> walk(i.operand(), visit);
            case Between b -> {
                walk(b.operand(), visit);
                walk(b.low(), visit);
                walk(b.high(), visit);
            }
            case And a -> a.terms().forEach(t -> walk(t, visit));
            case Or o -> o.terms().forEach(t -> walk(t, visit));
            case Not n -> walk(n.operand(), visit);
            case IsNull n -> walk(n.operand(), visit);
            case Call c -> c.args().forEach(a -> walk(a, visit));
            case Case c -> {
                c.conditions().forEach(x -> walk(x, visit));
                c.results().forEach(x -> walk(x, visit));
                if (c.otherwise() != null) {
                    walk(c.otherwise(), visit);
                }
            }
            case Like l -> walk(l.operand(), visit);
            case IsDistinct d -> {
                walk(d.left(), visit);
                walk(d.right(), visit);
            }
            default -> {}
        }
    }
}
