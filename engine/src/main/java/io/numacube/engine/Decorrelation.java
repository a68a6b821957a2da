package io.numacube.engine;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns the commonest correlated subqueries of a query over a FROM list (or tables joined INNER by {@code JOIN ...
 * ON}, taken as the FROM list and their ON conditions as WHERE terms: {@link InnerJoinList}) into joins, before
 * {@link Subqueries} runs the subqueries as tables (TPC-H Q2, Q4, Q17, Q20, Q21, Q22). Each must stand as a top-level AND term of WHERE and be a
 * {@link Correlation}: correlated by equalities of inner and outer columns (a key of one column or several), with at
 * most one other comparison with the outer query ({@code <> < <= > >=}) for EXISTS, and no other outer column:
 *
 * <ul>
 *   <li>{@code EXISTS (SELECT ... FROM t WHERE t.k = outer.c AND rest)} becomes the FROM item {@code (SELECT DISTINCT
 *       t.k AS __k FROM t WHERE rest) __existsN} and the term {@code outer.c = __existsN.__k}: an inner join to
 *       distinct keys, which keeps each outer row once where a match exists (a semi-join); {@code NOT EXISTS} the
 *       same table joined LEFT ({@link DerivedTables#ANTI_PREFIX}) and the term {@code __antiN.__k IS NULL} (an
 *       anti-join). A key of several columns is {@code __k, __k2, ...}, one term per column.
 *   <li>{@code EXISTS} with a comparison {@code t.s op outer.x} as well becomes {@code (SELECT t.k AS __k, MIN(t.s) AS
 *       __min, MAX(t.s) AS __max FROM t WHERE rest GROUP BY t.k) __existsN}, the key terms and a term that holds
 *       exactly where some row of the key passes the comparison: {@code __min < x} for {@code <}, {@code __max > x}
 *       for {@code >} (and so for {@code <=}, {@code >=}), {@code (__min <> x OR __max <> x)} for {@code <>}. MIN and
 *       MAX skip NULLs as the comparison fails on them, and a NULL x fails both. {@code NOT EXISTS} joins the same
 *       table LEFT and takes {@code (that term) IS NOT TRUE}: TRUE for an outer row without a key, with only NULLs,
 *       or with no row that passes. A later one over the same table, key and inner side, whose WHERE adds terms to an
 *       earlier one's, reads FILTERed MIN and MAX from the earlier one's table ({@link SharedMinMax}).
 *   <li>{@code x op (SELECT agg(...) FROM t WHERE t.k = outer.c AND rest)} (an aggregate other than COUNT, whose empty
 *       value is NULL) becomes the FROM item {@code (SELECT t.k AS __k, agg(...) AS __v FROM t WHERE rest GROUP BY
 *       t.k) __scalarN}, the term {@code outer.c = __scalarN.__k} and {@code x op __scalarN.__v}: a row without a
 *       group had a NULL subquery value, which no comparison passes, and the inner join drops it just the same.
 *   <li>{@code x NOT IN (SELECT c FROM t WHERE t.k = outer.c AND rest)} as a {@code NOT EXISTS} with {@code c = x}
 *       and a LEFT join to the key's counts of rows and of values ({@link #notIn}), NULLs as SQL has them.
 *   <li>An EXISTS inside a term's AND, OR or NOT ({@code EXISTS (...) OR v > 15}), correlated by equalities, as a
 *       mark: a LEFT join to the distinct keys and {@code __antiN.__k IS NOT NULL} in its place ({@link #marked}).
 * </ul>
 *
 * Where the outer key's table has filters of its own in the outer WHERE, the subquery is first joined to the distinct
 * keys that pass them ({@link MagicSets}), so it works on the keys that matter. {@link
 * io.numacube.engine.sql.SqlBinder}'s FROM list rules then join the new items on their keys. Anything else (COUNT,
 * an aggregate under EXISTS, two comparisons, a subquery inside an expression, a scalar value that is not NULL over no
 * row such as {@code COALESCE(MAX(x), 0)}) is left as it is, and refused as a
 * correlated subquery when it runs. One per statement; not thread-safe.
 */
final class Decorrelation {

    private final Function<String, Optional<TableSchema>> schemas;
    private final MagicSets magic;
    private int counter;
    /** The EXISTS turned into {@link #semiJoin}s so far: WHERE terms, not FROM items. */
    private int semiJoins;
    /** The MIN/MAX tables of the query {@link #rewrite} works on, which a later EXISTS may share. */
    private SharedMinMax minMax;

    /**
     * @param schemas the schema of a table by name (temporary tables included), for telling inner from outer
     * @param rows    the rows of a table by name, or -1 where unknown, for {@link MagicSets}
     */
    Decorrelation(Function<String, Optional<TableSchema>> schemas, ToLongFunction<String> rows) {
        this.schemas = schemas;
        this.magic = new MagicSets(() -> ++counter, rows, schemas);
    }

    /** Rewrites {@code select}'s WHERE and FROM in place, as the class comment says. */
    void rewrite(SqlSelect select) {
        InnerJoinList list = select.getWhere() == null ? null : InnerJoinList.of(select.getFrom());
        if (list == null) {
            return;
        }
        minMax = new SharedMinMax(schemas);
        List<SqlNode> terms = new ArrayList<>(list.on());
        terms.addAll(SqlTerms.andTerms(select.getWhere()));
        List<Correlation.Table> outerTables = new ArrayList<>();
        MagicSets.Outer outer = Correlation.tables(list.from(), schemas, outerTables)
                ? new MagicSets.Outer(outerTables, terms, list.from())
                : null;
        List<SqlNode> items = new ArrayList<>();
        List<SqlNode> out = new ArrayList<>();
        int before = semiJoins;
        for (SqlNode t : terms) {
            if (notIn(t, outerTables, items, out, outer)) {
                continue;
            }
            SqlNode asExists = correlatedInAsExists(t, outerTables);
            if (!exists(asExists == null ? t : asExists, items, out, outer)
                    && !scalarComparison(t, items, out, outer)) {
                out.add(t);
            }
        }
        List<SqlNode> markKeys = new ArrayList<>();
        out.replaceAll(t -> marked(t, items, markKeys));
        out.addAll(markKeys);
        if (items.isEmpty() && semiJoins == before) {
            return;
        }
        SqlNode from = list.from();
        for (SqlNode item : items) {
            from = SqlTerms.commaJoin(item.getParserPosition(), from, item);
        }
        select.setFrom(from);
        select.setWhere(SqlTerms.and(out, select.getWhere().getParserPosition()));
    }

    private boolean exists(SqlNode t, List<SqlNode> items, List<SqlNode> out, MagicSets.Outer outer) {
        boolean anti = t.getKind() == SqlKind.NOT && ((SqlCall) t).operand(0).getKind() == SqlKind.EXISTS;
        if (t.getKind() != SqlKind.EXISTS && !anti) {
            return false;
        }
        SqlCall exists = anti ? (SqlCall) ((SqlCall) t).operand(0) : (SqlCall) t;
        Correlation c = Correlation.of(exists.operand(0), schemas);
        if (c == null || grouped(c.query()) || hasAggregate(c.query().getSelectList(), false)) {
            return false;
        }
        boolean byKeySet = c.inequality() == null && integerKeys(c, outer);
        c = magic.restricted(c, outer, t);
        SqlParserPos pos = t.getParserPosition();
        if (byKeySet) {
            out.add(semiJoin(c, anti, pos));
            semiJoins++;
            return true;
        }
        String alias = (anti ? DerivedTables.ANTI_PREFIX : DerivedTables.EXISTS_PREFIX) + ++counter;
        SqlNodeList keys = keyItems(c, pos);
        Correlation.Inequality q = c.inequality();
        if (q == null) {
            items.add(
                    as(select(pos, SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)), keys, c, null), alias, pos));
            out.addAll(keyTerms(c, alias, pos));
            if (anti) {
                out.add(SqlStdOperatorTable.IS_NULL.createCall(pos, column(alias, DerivedTables.KEY, pos)));
            }
            return true;
        }
        SharedMinMax.Columns shared = minMax.share(c, pos);
        if (shared == null) {
            keys.add(as(SqlStdOperatorTable.MIN.createCall(pos, q.innerSide()), DerivedTables.LEAST, pos));
            keys.add(as(SqlStdOperatorTable.MAX.createCall(pos, copy(q.innerSide())), DerivedTables.GREATEST, pos));
            SqlSelect grouped = select(pos, null, keys, c, groupBy(c));
            items.add(as(grouped, alias, pos));
            minMax.add(alias, grouped, c);
            out.addAll(keyTerms(c, alias, pos));
            shared = new SharedMinMax.Columns(alias, DerivedTables.LEAST, DerivedTables.GREATEST);
        }
        SqlNode holds = somePasses(q, shared, pos);
        out.add(anti ? SqlStdOperatorTable.IS_NOT_TRUE.createCall(pos, holds) : holds);
        return true;
    }

    /**
     * Whether {@code c} is correlated by one equality of an integer inner column and an integer outer column (a
     * column of {@code outer}'s tables), and key sets are on ({@link SubqueryValues#keySets}): its EXISTS is then a
     * {@link #semiJoin}.
     */
    private boolean integerKeys(Correlation c, MagicSets.Outer outer) {
        if (!SubqueryValues.keySets() || outer == null || c.inner().size() != 1) {
            return false;
        }
        List<Correlation.Table> innerTables = new ArrayList<>();
        return Correlation.tables(c.query().getFrom(), schemas, innerTables)
                && MagicSets.isInteger(c.inner().get(0), innerTables)
                && MagicSets.isInteger(c.outer().get(0), outer.tables());
    }

    /**
     * {@code [NOT] EXISTS (SELECT ... FROM t WHERE t.k = outer.c AND rest)}, correlated by one integer key, as {@code
     * outer.c IN (SELECT DISTINCT t.k FROM t WHERE rest AND t.k IS NOT NULL)}, and {@code NOT EXISTS} as {@code (that
     * IN) IS NOT TRUE}: the subquery runs once and gives its keys as a key set ({@link Subqueries}), which the outer
     * scan tests row by row, with no table placed and joined. The keys hold no NULL, so the IN is TRUE exactly where
     * some inner row has the outer row's key and FALSE otherwise, but NULL for a NULL outer key: no EXISTS holds
     * there, and NOT EXISTS does (IS NOT TRUE), as in SQL.
     */
    private static SqlNode semiJoin(Correlation c, boolean anti, SqlParserPos pos) {
        SqlIdentifier key = c.inner().get(0);
        List<SqlNode> where = new ArrayList<>(c.rest());
        where.add(SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, copy(key)));
        SqlSelect keys = SqlTerms.select(
                pos,
                SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)),
                SqlNodeList.of(copy(key)),
                c.query().getFrom(),
                SqlTerms.and(where, pos),
                null);
        SqlNode in = SqlStdOperatorTable.IN.createCall(pos, copy(c.outer().get(0)), keys);
        return anti ? SqlStdOperatorTable.IS_NOT_TRUE.createCall(pos, in) : in;
    }

    /**
     * {@code e}, a WHERE term, with each correlated EXISTS inside its AND, OR and NOT (not a term of its own, which
     * {@link #exists} took) replaced by a mark: {@code EXISTS (SELECT ... FROM t WHERE t.k = outer.c AND rest)} becomes
     * {@code __antiN.__k IS NOT NULL} over the FROM item {@code (SELECT DISTINCT t.k AS __k FROM t WHERE rest)
     * __antiN} joined LEFT on the key ({@code outer.c = __antiN.__k}, added to {@code keys}): one row per outer row
     * (the keys are distinct), TRUE exactly where some inner row has the outer row's key, FALSE otherwise (a NULL key
     * too), never NULL, as EXISTS. Only a {@link Correlation} by equalities alone, without an aggregate, is marked; any
     * other is left as it is (and refused when it runs).
     */
    private SqlNode marked(SqlNode e, List<SqlNode> items, List<SqlNode> keys) {
        if (e.getKind() == SqlKind.EXISTS) {
            SqlNode mark = mark((SqlCall) e, items, keys);
            return mark == null ? e : mark;
        }
        if ((e.getKind() == SqlKind.AND || e.getKind() == SqlKind.OR || e.getKind() == SqlKind.NOT)
                && e instanceof SqlCall call) {
            for (int i = 0; i < call.operandCount(); i++) {
                call.setOperand(i, marked(call.operand(i), items, keys));
            }
        }
        return e;
    }

    /** {@link #marked}'s mark of one EXISTS, or null where it is not of that shape. */
    private SqlNode mark(SqlCall exists, List<SqlNode> items, List<SqlNode> keys) {
        Correlation c = Correlation.of(exists.operand(0), schemas);
        if (c == null
                || c.inequality() != null
                || grouped(c.query())
                || hasAggregate(c.query().getSelectList(), false)) {
            return null;
        }
        SqlParserPos pos = exists.getParserPosition();
        String alias = DerivedTables.ANTI_PREFIX + ++counter;
        items.add(as(
                select(pos, SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)), keyItems(c, pos), c, null),
                alias,
                pos));
        keys.addAll(keyTerms(c, alias, pos));
        return SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, column(alias, DerivedTables.KEY, pos));
    }

    /**
     * Whether {@link #rewrite} turns the WHERE term {@code t} of {@code select}, an IN of a correlated subquery, into a
     * join.
     */
    boolean takesIn(SqlSelect select, SqlNode t) {
        List<Correlation.Table> outerTables = new ArrayList<>();
        InnerJoinList list = InnerJoinList.of(select.getFrom());
        if (list == null || !Correlation.tables(list.from(), schemas, outerTables)) {
            return false;
        }
        if (t.getKind() == SqlKind.NOT_IN) {
            return notInKeys(t, outerTables) != null;
        }
        SqlNode asExists = correlatedInAsExists(t, outerTables);
        if (asExists == null) {
            return false;
        }
        Correlation c = Correlation.of(((SqlCall) asExists).operand(0), schemas);
        return !grouped(c.query()) && !hasAggregate(c.query().getSelectList(), false);
    }

    /**
     * {@code x NOT IN (SELECT c FROM t WHERE t.k = outer.k AND rest)}, a term of WHERE, as two anti-joins. Over the set
     * S of the key's values of c, the term is TRUE where S is empty (a NULL x too), NULL where x is NULL or S holds a
     * NULL, FALSE where x is in S, and TRUE otherwise; so a row is kept exactly where {@code NOT EXISTS (SELECT 1 FROM
     * t WHERE rest AND t.k = outer.k AND c = x)} and, over {@code (SELECT t.k AS __k, COUNT(*) AS __rows, COUNT(c) AS
     * __values FROM t WHERE rest GROUP BY t.k) __antiN} joined LEFT, {@code (__rows > 0 AND (x IS NULL OR __rows >
     * __values)) IS NOT TRUE} (no row of the key, or a non-NULL x and no NULL among the values). False (nothing added)
     * where {@link #notInKeys} takes no such term.
     */
    private boolean notIn(
            SqlNode t,
            List<Correlation.Table> outerTables,
            List<SqlNode> items,
            List<SqlNode> out,
            MagicSets.Outer outer) {
        Correlation rows = notInKeys(t, outerTables);
        if (rows == null) {
            return false;
        }
        SqlCall in = (SqlCall) t;
        SqlParserPos pos = t.getParserPosition();
        SqlNode match = SqlStdOperatorTable.NOT.createCall(pos, inAsExists(in, outerTables));
        if (!exists(match, items, out, outer)) {
            return false;
        }
        String alias = DerivedTables.ANTI_PREFIX + ++counter;
        SqlNode c = rows.query().getSelectList().get(0);
        SqlNodeList keys = keyItems(rows, pos);
        keys.add(as(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)), DerivedTables.ROWS, pos));
        keys.add(as(SqlStdOperatorTable.COUNT.createCall(pos, copy(c)), DerivedTables.VALUES, pos));
        items.add(as(select(pos, null, keys, rows, groupBy(rows)), alias, pos));
        out.addAll(keyTerms(rows, alias, pos));
        SqlIdentifier rowCount = column(alias, DerivedTables.ROWS, pos);
        SqlNode unknownOrFalse = SqlStdOperatorTable.AND.createCall(
                pos,
                SqlStdOperatorTable.GREATER_THAN.createCall(pos, rowCount, SqlLiteral.createExactNumeric("0", pos)),
                SqlStdOperatorTable.OR.createCall(
                        pos,
                        SqlStdOperatorTable.IS_NULL.createCall(
                                pos, qualified((SqlIdentifier) in.operand(0), outerTables)),
                        SqlStdOperatorTable.GREATER_THAN.createCall(
                                pos, copy(rowCount), column(alias, DerivedTables.VALUES, pos))));
        out.add(SqlStdOperatorTable.IS_NOT_TRUE.createCall(pos, unknownOrFalse));
        return true;
    }

    /**
     * The correlation of the subquery of {@code t} where {@code t} is a NOT IN that {@link #notIn} takes: an IN that
     * {@link #inAsExists} takes, whose subquery is correlated by equalities alone (no inequality, whose values would
     * differ per outer row rather than per key); else null.
     */
    private Correlation notInKeys(SqlNode t, List<Correlation.Table> outerTables) {
        if (t.getKind() != SqlKind.NOT_IN) {
            return null;
        }
        SqlNode exists = inAsExists((SqlCall) t, outerTables);
        if (exists == null) {
            return null;
        }
        Correlation match = Correlation.of(((SqlCall) exists).operand(0), schemas);
        Correlation rows = Correlation.of(((SqlCall) t).operand(1), schemas);
        return match.inequality() == null && rows != null && rows.inequality() == null ? rows : null;
    }

    /**
     * {@code x IN (SELECT c FROM t WHERE rest)}, a term of WHERE whose subquery names the outer query, as {@code EXISTS
     * (SELECT 1 FROM t WHERE rest AND c = x)}: as a term of WHERE the two keep the same rows (TRUE exactly where some
     * inner row has c = x; a NULL x or c makes neither TRUE). Null when {@code t} is no such IN (an IN whose subquery
     * names no outer column runs first as a list of values), or when the EXISTS is no {@link Correlation}.
     */
    private SqlNode correlatedInAsExists(SqlNode t, List<Correlation.Table> outerTables) {
        return t.getKind() == SqlKind.IN ? inAsExists((SqlCall) t, outerTables) : null;
    }

    /** {@link #correlatedInAsExists} of an IN or a NOT IN {@code t}, without its NOT. */
    private SqlNode inAsExists(SqlCall t, List<Correlation.Table> outerTables) {
        if (!(((SqlCall) t).operand(0) instanceof SqlIdentifier name)
                || !(((SqlCall) t).operand(1) instanceof SqlSelect s)
                || s.getWhere() == null
                || s.getSelectList().size() != 1
                || !(s.getSelectList().get(0) instanceof SqlIdentifier c)
                || c.isStar()
                || grouped(s)
                || s.getHaving() != null
                || s.getFetch() != null
                || s.getOffset() != null) {
            return null;
        }
        SqlIdentifier x = qualified(name, outerTables);
        if (x == null) {
            return null;
        }
        SqlParserPos pos = t.getParserPosition();
        SqlNode where =
                SqlStdOperatorTable.AND.createCall(pos, s.getWhere(), SqlStdOperatorTable.EQUALS.createCall(pos, c, x));
        SqlSelect exists = SqlTerms.select(
                s.getParserPosition(),
                null,
                SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos)),
                s.getFrom(),
                where,
                null);
        Correlation corr = Correlation.of(exists, schemas);
        // the equality added here alone would make an uncorrelated IN look correlated
        if (corr == null || (corr.inner().size() < 2 && corr.inequality() == null)) {
            return null;
        }
        return SqlStdOperatorTable.EXISTS.createCall(pos, exists);
    }

    /**
     * {@code name}, a column of the outer query, qualified by its table where it is not (inside the subquery a bare
     * name is the inner table's first), or null when no one outer table has it.
     */
    private static SqlIdentifier qualified(SqlIdentifier name, List<Correlation.Table> outerTables) {
        if (name.names.size() == 2) {
            return name;
        }
        List<Correlation.Table> having = outerTables.stream()
                .filter(table -> name.isSimple() && table.schema().indexOf(name.getSimple()) >= 0)
                .toList();
        return having.size() != 1
                ? null
                : new SqlIdentifier(List.of(having.get(0).qualifier(), name.getSimple()), name.getParserPosition());
    }

    /** A condition on the keys' MIN and MAX that holds exactly where some inner row of the key passes {@code q}. */
    private static SqlNode somePasses(Correlation.Inequality q, SharedMinMax.Columns minMax, SqlParserPos pos) {
        SqlIdentifier least = column(minMax.alias(), minMax.least(), pos);
        SqlIdentifier greatest = column(minMax.alias(), minMax.greatest(), pos);
        SqlNode x = q.outerSide();
        return switch (q.op()) {
            case LESS_THAN -> SqlStdOperatorTable.LESS_THAN.createCall(pos, least, x);
            case LESS_THAN_OR_EQUAL -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, least, x);
            case GREATER_THAN -> SqlStdOperatorTable.GREATER_THAN.createCall(pos, greatest, x);
            case GREATER_THAN_OR_EQUAL -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(pos, greatest, x);
            case NOT_EQUALS ->
                SqlStdOperatorTable.OR.createCall(
                        pos,
                        SqlStdOperatorTable.NOT_EQUALS.createCall(pos, least, x),
                        SqlStdOperatorTable.NOT_EQUALS.createCall(pos, greatest, copy(x)));
            default -> throw new IllegalStateException("not an inequality: " + q.op());
        };
    }

    private boolean scalarComparison(SqlNode t, List<SqlNode> items, List<SqlNode> out, MagicSets.Outer outer) {
        if (!isComparison(t)) {
            return false;
        }
        SqlCall cmp = (SqlCall) t;
        int side = cmp.operand(1) instanceof SqlSelect ? 1 : cmp.operand(0) instanceof SqlSelect ? 0 : -1;
        Correlation c = side < 0 ? null : Correlation.of(cmp.operand(side), schemas);
        if (c == null
                || c.inequality() != null
                || grouped(c.query())
                || c.query().getSelectList().size() != 1
                || !hasAggregate(c.query().getSelectList(), true)
                || !nullWhenEmpty(c.query().getSelectList().get(0))) {
            return false;
        }
        c = magic.restricted(c, outer, t);
        SqlParserPos pos = t.getParserPosition();
        String alias = DerivedTables.SCALAR_PREFIX + ++counter;
        SqlNodeList itemsOfKey = keyItems(c, pos);
        itemsOfKey.add(as(c.query().getSelectList().get(0), DerivedTables.VALUE, pos));
        items.add(as(select(pos, null, itemsOfKey, c, groupBy(c)), alias, pos));
        cmp.setOperand(side, column(alias, DerivedTables.VALUE, pos));
        out.add(cmp);
        out.addAll(keyTerms(c, alias, pos));
        return true;
    }

    /** {@code inner1 AS __k, inner2 AS __k2, ...}. */
    private static SqlNodeList keyItems(Correlation c, SqlParserPos pos) {
        SqlNodeList out = new SqlNodeList(pos);
        for (int i = 0; i < c.inner().size(); i++) {
            out.add(as(c.inner().get(i), DerivedTables.key(i), pos));
        }
        return out;
    }

    /** {@code GROUP BY inner1, inner2, ...}. */
    private static SqlNodeList groupBy(Correlation c) {
        SqlNodeList out = new SqlNodeList(SqlParserPos.ZERO);
        c.inner().forEach(i -> out.add(copy(i)));
        return out;
    }

    /** {@code outer1 = alias.__k AND outer2 = alias.__k2 ...}, as separate terms. */
    private static List<SqlNode> keyTerms(Correlation c, String alias, SqlParserPos pos) {
        List<SqlNode> out = new ArrayList<>();
        for (int i = 0; i < c.outer().size(); i++) {
            out.add(SqlStdOperatorTable.EQUALS.createCall(
                    pos, c.outer().get(i), column(alias, DerivedTables.key(i), pos)));
        }
        return out;
    }

    /**
     * Whether {@code items} call an aggregate (SUM, MIN, MAX or AVG, and COUNT too unless {@code withoutCount}), by
     * name, as the parser leaves them; with {@code withoutCount}, also that none calls COUNT (whose empty value is 0,
     * not NULL).
     */
    private static boolean hasAggregate(SqlNodeList items, boolean withoutCount) {
        boolean[] seen = new boolean[2];
        for (SqlNode e : items) {
            aggregates(e, seen);
        }
        return withoutCount ? seen[0] && !seen[1] : seen[0] || seen[1];
    }

    /**
     * Whether {@code e}, a select item of an aggregation, is NULL over no row: SUM, MIN, MAX or AVG (with a FILTER or
     * not), or arithmetic or a CAST with such an operand (NULL in, NULL out). Anything else may have a value over no
     * row ({@code COALESCE(MAX(x), 0)} is 0, a CASE may be anything), which the inner join to the groups would drop.
     */
    private static boolean nullWhenEmpty(SqlNode e) {
        if (!(e instanceof SqlCall call) || e instanceof SqlSelect) {
            return false;
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("SUM") || name.equals("MIN") || name.equals("MAX") || name.equals("AVG")) {
            return true;
        }
        return switch (call.getKind()) {
            case AS, FILTER -> nullWhenEmpty(call.operand(0));
            case PLUS, MINUS, TIMES, DIVIDE, MINUS_PREFIX, PLUS_PREFIX, CAST ->
                call.getOperandList().stream().anyMatch(Decorrelation::nullWhenEmpty);
            default -> false;
        };
    }

    private static void aggregates(SqlNode e, boolean[] seen) {
        if (e instanceof SqlNodeList list) {
            // a CASE keeps its WHEN and THEN operands in lists
            list.forEach(o -> aggregates(o, seen));
            return;
        }
        if (!(e instanceof SqlCall call) || e instanceof SqlSelect) {
            return;
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        seen[0] |= name.equals("SUM") || name.equals("MIN") || name.equals("MAX") || name.equals("AVG");
        seen[1] |= name.equals("COUNT");
        for (SqlNode o : call.getOperandList()) {
            if (o != null) {
                aggregates(o, seen);
            }
        }
    }

    private static SqlSelect select(
            SqlParserPos pos, SqlNodeList keywords, SqlNodeList items, Correlation c, SqlNodeList groupBy) {
        return SqlTerms.select(pos, keywords, items, c.query().getFrom(), SqlTerms.and(c.rest(), pos), groupBy);
    }

    private static boolean grouped(SqlSelect s) {
        return s.getGroup() != null && !s.getGroup().isEmpty();
    }

    private static boolean isComparison(SqlNode t) {
        return switch (t.getKind()) {
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    private static SqlNode copy(SqlNode e) {
        return e.clone(e.getParserPosition());
    }

    static SqlNode as(SqlNode e, String name, SqlParserPos pos) {
        return SqlStdOperatorTable.AS.createCall(pos, e, new SqlIdentifier(name, pos));
    }

    static SqlIdentifier column(String table, String column, SqlParserPos pos) {
        return new SqlIdentifier(List.of(table, column), pos);
    }
}
