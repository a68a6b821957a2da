package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.KeySetLiteral;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.DateString;

/**
 * Runs the subqueries of a statement before the statement itself, as small tables or literal values: a {@code WITH}
 * item and a subquery in FROM become a temporary table (their rows staged and placed like any loaded table, so an
 * outer aggregation groups, joins and filters them as usual), and a subquery in {@code IN (SELECT ...)} or a scalar
 * subquery becomes its literal values. Subqueries run innermost first; a name defined by WITH hides a table of that
 * name. A subquery is run on its own, so one that names the outer query's columns fails to bind, unless
 * {@link Decorrelation} made it a join first (EXISTS and a comparison with an aggregate, correlated by equalities, and
 * EXISTS by one comparison more). A derived table that only filters and computes columns is merged into the query over
 * it first ({@link DerivedTableMerge}), and a LEFT JOIN whose right table's rows are aggregated per left row is
 * aggregated eagerly ({@link EagerAggregation}). The temporary tables live for one statement (the caller frees them).
 *
 * <p>One per statement; not thread-safe.
 */
final class Subqueries {

    /**
     * A temporary table of more rows than this holds an integer column as plain BIGINT, not coded with a dictionary
     * (EXISTS over TPC-H's lineitem gives 1.4M distinct order keys: a join reads them as they are).
     */
    static final int CODED_INT_ROWS = 1 << 16;

    /** Most values an {@code IN (SELECT ...)} subquery may give. */
    static final int MAX_IN_VALUES = 1_000_000;

    private final Function<SqlNode, QueryResult> run;
    private final java.util.function.Consumer<TableStaging> load;
    private final Decorrelation decorrelation;

    /** The schemas of the tables the statement may name, for telling an outer column from a missing one. */
    private final io.numacube.engine.sql.SqlBinder.Catalog catalog;

    private final EagerAggregation eagerAggregation;
    private int counter;
    /** The one-row table a SELECT without FROM reads, once placed. */
    private String oneRowTable;
    /**
     * Each query placed so far, with its column names and temporary table: the same subquery twice in one statement
     * (the distinct keys {@link MagicSets} gives TPC-H Q21's EXISTS and its NOT EXISTS) runs once.
     */
    private final List<Placed> materialized = new ArrayList<>();

    /**
     * A query placed as temporary table {@code temp}, under {@code columns} (null: its own names); its nodes are not
     * changed after it is placed.
     */
    private record Placed(SqlNode query, SqlNodeList columns, String temp) {

        /** Whether {@code query} under {@code columns} is this one, node for node ({@link SqlNode#equalsDeep}). */
        boolean same(SqlNode q, SqlNodeList c) {
            return query.equalsDeep(q, org.apache.calcite.util.Litmus.IGNORE)
                    && (columns == null ? c == null : columns.equalsDeep(c, org.apache.calcite.util.Litmus.IGNORE));
        }
    }
    /**
     * The key set of each IN subquery run so far that gave one, by its text and the WITH tables in scope: as {@link #materialized}, the distinct
     * keys {@link MagicSets} gives TPC-H Q21's EXISTS and its NOT EXISTS run once.
     */
    private final java.util.Map<String, KeySetLiteral> keySetsRun = new java.util.HashMap<>();
    /**
     * The WITH names in scope and the temporary tables standing for them, in definition order (a later one hides an
     * earlier); a WITH's names leave when its body is rewritten.
     */
    private final List<String[]> renames = new ArrayList<>();

    /** The table names and aliases of the queries being rewritten, innermost first. */
    private final java.util.Deque<Set<String>> enclosing = new java.util.ArrayDeque<>();

    /**
     * Whether each query of {@link #enclosing} joins by LEFT, RIGHT or FULL JOIN or USING, which {@link Decorrelation}
     * does not decorrelate over ({@link InnerJoinList}); in the same order.
     */
    private final java.util.Deque<Boolean> outerJoined = new java.util.ArrayDeque<>();

    /**
     * @param run     runs a (rewritten, subquery-free) statement
     * @param load    places a staged table under its schema's name, for this statement only
     * @param catalog the schema and rows of a table by name (temporary tables included), for {@link Decorrelation}
     *                and {@link EagerAggregation}
     */
    Subqueries(
            Function<SqlNode, QueryResult> run,
            java.util.function.Consumer<TableStaging> load,
            io.numacube.engine.sql.SqlBinder.Catalog catalog) {
        this.run = run;
        this.load = load;
        this.catalog = catalog;
        this.decorrelation = new Decorrelation(catalog::schema, catalog::rows);
        this.eagerAggregation = new EagerAggregation(catalog, this::rewriteFrom);
    }

    /** The statement with its subqueries replaced by temporary table names or literal values. */
    SqlNode rewrite(SqlNode root) {
        if (root instanceof SqlWith with) {
            // a WITH name is seen in its own body only: a WITH inside a derived table or an IN subquery must not hide
            // a table of that name elsewhere in the statement (it did: a later scalar subquery read the WITH's rows)
            int scope = renames.size();
            for (SqlNode n : with.withList) {
                SqlWithItem item = (SqlWithItem) n;
                String name = item.name.getSimple();
                String temp = materialize(rewrite(item.query), name, item.columnList);
                renames.add(new String[] {name, temp});
            }
            SqlNode body = rewrite(with.body);
            renames.subList(scope, renames.size()).clear();
            return body;
        }
        if (SetOperations.isSetOperation(root)) {
            return setOperation((SqlCall) root);
        }
        if (root instanceof SqlOrderBy ob && SetOperations.isSetOperation(ob.query)) {
            SqlSelect select = (SqlSelect) setOperation((SqlCall) ob.query);
            checkSetOrder(ob.orderList, select);
            return new SqlOrderBy(ob.getParserPosition(), select, ob.orderList, ob.offset, ob.fetch);
        }
        SqlNode merged = DerivedTableMerge.merge(root);
        if (merged != root) {
            return rewrite(merged);
        }
        SqlNode eager = eagerAggregation.rewrite(root);
        if (eager != root) {
            return rewrite(eager);
        }
        if (root instanceof SqlOrderBy ob) {
            return new SqlOrderBy(ob.getParserPosition(), rewrite(ob.query), ob.orderList, ob.offset, ob.fetch);
        }
        if (root instanceof SqlSelect select) {
            return rewriteSelect(select);
        }
        return root;
    }

    /** A SELECT with its FROM and expressions rewritten, in place, its own tables in scope meanwhile. */
    private SqlSelect rewriteSelect(SqlSelect select) {
        if (select.getFrom() == null) {
            select.setFrom(oneRow(select));
        }
        Set<String> names = new HashSet<>();
        fromNames(select.getFrom(), names);
        enclosing.push(names);
        outerJoined.push(InnerJoinList.hasOuterOrUsingJoin(select.getFrom()));
        try {
            inListsFirst(select);
            decorrelation.rewrite(select);
            select.setFrom(rewriteFrom(select.getFrom()));
            if (select.getWhere() != null) {
                select.setWhere(rewriteExpression(select.getWhere()));
            }
            if (select.getHaving() != null) {
                select.setHaving(rewriteExpression(select.getHaving()));
            }
            SqlNodeList items = select.getSelectList();
            for (int i = 0; i < items.size(); i++) {
                items.set(i, rewriteExpression(items.get(i)));
            }
        } finally {
            enclosing.pop();
            outerJoined.pop();
        }
        return select;
    }

    /**
     * The WHERE terms {@code x [NOT] IN (SELECT ...)} replaced by their values before the correlated subqueries of the
     * same WHERE are decorrelated, so that they are filters of their table that {@link MagicSets} can push into those
     * subqueries (TPC-H Q20's {@code ps_partkey IN (SELECT p_partkey ...)}). An IN subquery that is itself correlated
     * is left to {@link Decorrelation} where it takes it ({@link Decorrelation#takesIn}), and fails here otherwise.
     */
    private void inListsFirst(SqlSelect select) {
        if (select.getWhere() == null) {
            return;
        }
        List<SqlNode> terms = new ArrayList<>();
        boolean any = false;
        for (SqlNode t : io.numacube.engine.sql.SqlTerms.andTerms(select.getWhere())) {
            boolean in = (t.getKind() == SqlKind.IN || t.getKind() == SqlKind.NOT_IN)
                    && isQuery(((SqlCall) t).operand(1))
                    && !decorrelation.takesIn(select, t);
            terms.add(in ? rewriteExpression(t) : t);
            any |= in;
        }
        if (any) {
            select.setWhere(
                    io.numacube.engine.sql.SqlTerms.and(terms, select.getWhere().getParserPosition()));
        }
    }

    private SqlNode rewriteFrom(SqlNode from) {
        if (from == null) {
            return null;
        }
        if (from instanceof SqlJoin join) {
            join.setLeft(rewriteFrom(join.getLeft()));
            join.setRight(rewriteFrom(join.getRight()));
            return join;
        }
        if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            SqlNode inner = as.operand(0);
            if (isQuery(inner)) {
                String alias = ((SqlIdentifier) as.operand(1)).getSimple();
                SqlNodeList columns = as.operandCount() > 2 ? columnList(as) : null;
                String temp = materialize(rewrite(inner), alias, columns);
                // the column aliases named the temporary table's columns: the table keeps the alias only
                return new SqlBasicCall(
                        org.apache.calcite.sql.fun.SqlStdOperatorTable.AS,
                        List.of(new SqlIdentifier(temp, inner.getParserPosition()), as.operand(1)),
                        as.getParserPosition());
            }
            String temp = inner instanceof SqlIdentifier id ? withTable(id) : null;
            if (temp != null) {
                as.setOperand(0, new SqlIdentifier(temp, inner.getParserPosition()));
            }
            return as;
        }
        if (isQuery(from)) {
            String temp = materialize(rewrite(from), "subquery", null);
            return new SqlIdentifier(temp, from.getParserPosition());
        }
        if (from instanceof SqlIdentifier id && withTable(id) != null) {
            // keep the WITH name as the alias, so name.column still resolves
            return new SqlBasicCall(
                    org.apache.calcite.sql.fun.SqlStdOperatorTable.AS,
                    List.of(new SqlIdentifier(withTable(id), id.getParserPosition()), id),
                    id.getParserPosition());
        }
        return from;
    }

    /**
     * The WITH names in scope and their temporary tables, as text: a subquery's text names WITH tables by their names,
     * so the same text under another WITH of that name (two scalar subqueries each with its own {@code WITH t}) is
     * another query.
     */
    private String withTablesInScope() {
        StringBuilder text = new StringBuilder();
        for (String[] rename : renames) {
            text.append('\n').append(rename[0]).append('=').append(rename[1]);
        }
        return text.toString();
    }

    /** The temporary table of the WITH item {@code id} names (the latest of that name), or null. */
    private String withTable(SqlIdentifier id) {
        if (id.names.size() != 1) {
            return null;
        }
        for (int i = renames.size() - 1; i >= 0; i--) {
            if (renames.get(i)[0].equalsIgnoreCase(id.getSimple())) {
                return renames.get(i)[1];
            }
        }
        return null;
    }

    private static SqlNodeList columnList(SqlCall as) {
        SqlNodeList list = new SqlNodeList(as.getParserPosition());
        for (int i = 2; i < as.operandCount(); i++) {
            list.add(as.operand(i));
        }
        return list;
    }

    private static boolean isQuery(SqlNode n) {
        return n instanceof SqlSelect
                || n instanceof SqlOrderBy
                || n instanceof SqlWith
                || SetOperations.isSetOperation(n);
    }

    /**
     * A set operation run ({@link SetOperations}) and placed as a temporary table, as {@code SELECT} of its columns
     * under the first branch's names (which may repeat, as in {@code SELECT 1, 1 UNION ...}); an ORDER BY, LIMIT or
     * OFFSET over it applies to that SELECT.
     */
    private SqlNode setOperation(SqlCall op) {
        QueryResult r = SetOperations.evaluate(op, branch -> run.apply(rewrite(branch)));
        SqlNodeList columns = new SqlNodeList(op.getParserPosition());
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int c = 0; c < r.columnCount(); c++) {
            columns.add(new SqlIdentifier("__c" + c, SqlParserPos.ZERO));
            sql.append(c == 0 ? "" : ", ").append("\"__c").append(c).append("\" AS ");
            sql.append('"').append(r.columnNames().get(c).replace("\"", "\"\"")).append('"');
        }
        String temp = place(r, op, "union", columns);
        return io.numacube.engine.sql.SqlBinder.parse(
                sql.append(" FROM \"").append(temp).append('"').toString());
    }

    /**
     * Refuses an ORDER BY term over a set operation that is not a result column's name or ordinal (as PostgreSQL and
     * DuckDB do: {@code ORDER BY k + 1} names no column of the result).
     */
    private static void checkSetOrder(SqlNodeList orderList, SqlSelect select) {
        Set<String> names = new HashSet<>();
        for (SqlNode item : select.getSelectList()) {
            names.add(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple().toLowerCase(Locale.ROOT));
        }
        for (SqlNode term : orderList) {
            SqlNode t = term;
            while (t.getKind() == SqlKind.DESCENDING
                    || t.getKind() == SqlKind.NULLS_FIRST
                    || t.getKind() == SqlKind.NULLS_LAST) {
                t = ((SqlCall) t).operand(0);
            }
            boolean column = t instanceof SqlIdentifier id
                    && id.isSimple()
                    && names.contains(id.getSimple().toLowerCase(Locale.ROOT));
            if (!column && !(t instanceof org.apache.calcite.sql.SqlNumericLiteral)) {
                throw unsupported(
                        t,
                        "ORDER BY " + t + " over UNION, INTERSECT or EXCEPT: only a result column's name or ordinal"
                                + " can order a set operation — move the set operation into a FROM clause");
            }
        }
    }

    /**
     * The FROM of a SELECT without one: a temporary table of one row, so {@code SELECT 1 + 2 AS x, 'a'} gives one row
     * and {@code SELECT COUNT(*)} 1, as in DuckDB. {@code SELECT *} has no table to name (refused, as DuckDB does).
     */
    private SqlNode oneRow(SqlSelect select) {
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw error(item, "42601", "SELECT * without FROM: there is no table whose columns * would name");
            }
        }
        if (oneRowTable == null) {
            TableStaging staging = new TableStaging(new TableSchema(
                    DerivedTables.ONE_ROW_PREFIX + (++counter), List.of(ColumnSpec.of("__one", ColumnType.INT))));
            staging.keepLongsPlain();
            staging.setLong(0, 1);
            staging.endRow();
            load.accept(staging);
            oneRowTable = staging.schema().name();
        }
        return new SqlIdentifier(oneRowTable, select.getParserPosition());
    }

    /**
     * {@code x = ANY (subquery)} (or SOME) as {@code x IN (subquery)}, and {@code x <> ALL (subquery)} as {@code x NOT IN
     * (subquery)}: the same rows, NULLs included, by the standard's definitions; other quantified comparisons ({@code >
     * ANY}, {@code = ALL}) are refused with their position.
     */
    private static SqlNode asIn(SqlCall call) {
        SqlKind comparison = ((org.apache.calcite.sql.fun.SqlQuantifyOperator) call.getOperator()).comparisonKind;
        if (call.getKind() == SqlKind.SOME && comparison == SqlKind.EQUALS) {
            return org.apache.calcite.sql.fun.SqlStdOperatorTable.IN.createCall(
                    call.getParserPosition(), call.operand(0), call.operand(1));
        }
        if (call.getKind() == SqlKind.ALL && comparison == SqlKind.NOT_EQUALS) {
            return org.apache.calcite.sql.fun.SqlStdOperatorTable.NOT_IN.createCall(
                    call.getParserPosition(), call.operand(0), call.operand(1));
        }
        throw unsupported(call, call.getOperator().getName() + " (subquery): only = ANY and <> ALL, as IN and NOT IN");
    }

    /** Scalar subqueries and {@code IN (SELECT ...)} inside an expression, replaced by their values. */
    private SqlNode rewriteExpression(SqlNode e) {
        if (isQuery(e)) {
            return scalar(e);
        }
        if (e instanceof SqlNodeList list) {
            // a CASE keeps its WHENs and THENs in lists, an IN its values
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) != null) {
                    list.set(i, rewriteExpression(list.get(i)));
                }
            }
            return list;
        }
        if (!(e instanceof SqlCall call)) {
            return e;
        }
        if (call.getKind() == SqlKind.EXISTS) {
            return existsValue(call);
        }
        if (call.getKind() == SqlKind.SOME || call.getKind() == SqlKind.ALL) {
            return rewriteExpression(asIn(call));
        }
        if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN) && isQuery(call.operand(1))) {
            call.setOperand(0, rewriteExpression(call.operand(0)));
            SqlNode values = inList(call.operand(1));
            if (values instanceof SqlNodeList list && list.isEmpty()) {
                // x IN (no row) is FALSE and x NOT IN (no row) TRUE, for a NULL x too, as in DuckDB
                return SqlLiteral.createBoolean(call.getKind() == SqlKind.NOT_IN, call.getParserPosition());
            }
            call.setOperand(1, values);
            return call;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode o = call.operand(i);
            if (o != null) {
                call.setOperand(i, rewriteExpression(o));
            }
        }
        return call;
    }

    /**
     * Runs a subquery of an expression; one that names a table of an enclosing query (a correlation {@link
     * Decorrelation} did not turn into a join) is refused as such, not as a table missing from its FROM.
     */
    private QueryResult runInner(SqlNode query) {
        try {
            return run.apply(rewrite(query));
        } catch (NumacubeException e) {
            String prefix = "no such table in FROM: table=";
            String column = "no such column: column=";
            String name = null;
            if ("42P01".equals(e.code()) && e.detail().startsWith(prefix)) {
                String table = e.detail().substring(prefix.length()).strip().toLowerCase(Locale.ROOT);
                name = enclosing.stream().anyMatch(scope -> scope.contains(table)) ? table : null;
            } else if ("42703".equals(e.code()) && e.detail().startsWith(column)) {
                // a bare name of an outer column, which the subquery's own tables do not have
                name = outerTableOf(e.detail().substring(column.length()).split("\\s")[0]);
            }
            if (name != null && Boolean.TRUE.equals(outerJoined.peek())) {
                throw unsupported(query, CORRELATED + " (it names " + name + " of the outer query)" + OUTER_JOINED);
            }
            if (name != null) {
                throw unsupported(
                        query,
                        CORRELATED + " (it names " + name + " of the outer query): EXISTS,"
                                + " NOT EXISTS, IN and a comparison with a SUM, MIN, MAX or AVG over the rows of"
                                + " the outer key are turned into joins; COUNT, COALESCE or CASE (which have a value"
                                + " over no rows), two comparisons or a correlation inside an expression are not"
                                + " yet — write it as a join to a derived table grouped by the key");
            }
            throw e;
        }
    }

    /**
     * An EXISTS that {@link Decorrelation} did not turn into a join, run first as a subquery of its own (at most one
     * row read): TRUE or FALSE. One that names a table of the outer query is refused as {@link #runInner} says.
     */
    private SqlNode existsValue(SqlCall exists) {
        SqlNode query = exists.operand(0);
        if (query instanceof SqlSelect select && select.getFetch() == null) {
            select.setFetch(SqlLiteral.createExactNumeric("1", SqlParserPos.ZERO));
        }
        try {
            return SqlLiteral.createBoolean(runInner(query).rowCount() > 0, exists.getParserPosition());
        } catch (NumacubeException e) {
            if ("0A000".equals(e.code()) && e.detail().contains(OUTER_JOINED)) {
                throw unsupported(exists, "EXISTS (subquery) correlated to its outer query" + OUTER_JOINED);
            }
            if ("0A000".equals(e.code()) && e.detail().contains(CORRELATED)) {
                throw unsupported(
                        exists,
                        "EXISTS (subquery) of this shape: EXISTS and NOT EXISTS standing as a term of WHERE and"
                                + " correlated by equalities of an inner and an outer column (i.k = o.k) are turned"
                                + " into joins, and so is one inside AND, OR or NOT when correlated by equalities"
                                + " alone; a correlation through an expression (i.k = o.k + 1, i.k = CAST(o.k AS"
                                + " BIGINT)), or by a comparison inside an expression, is not yet");
            }
            throw e;
        }
    }

    /** Why {@link #runInner} refuses a correlated subquery of a query with an outer join. */
    private static final String OUTER_JOINED =
            ", whose FROM has a LEFT, RIGHT or FULL JOIN or a JOIN ... USING: a correlated subquery is turned into a"
                    + " join only where the outer tables are joined by commas or INNER JOIN ... ON (a LEFT JOIN's ON"
                    + " condition cannot become a WHERE term) — join the subquery's distinct keys as a derived table"
                    + " instead";

    /** How {@link #runInner} refuses a subquery that names its outer query. */
    private static final String CORRELATED = "a correlated subquery of this shape";

    /** The name of an enclosing query's table (or alias) with a column {@code column}, or null. */
    private String outerTableOf(String column) {
        for (Set<String> scope : enclosing) {
            for (String table : scope) {
                if (catalog.schema(table).map(t -> t.indexOf(column) >= 0).orElse(false)) {
                    return table;
                }
            }
        }
        return null;
    }

    /** The table names and aliases of a FROM clause, lower case, into {@code names}. */
    private static void fromNames(SqlNode from, Set<String> names) {
        if (from instanceof SqlJoin join) {
            fromNames(join.getLeft(), names);
            fromNames(join.getRight(), names);
        } else if (from instanceof SqlIdentifier id) {
            names.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
        } else if (from != null && from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            fromNames(as.operand(0), names);
            fromNames(as.operand(1), names);
        }
    }

    /**
     * The value of a scalar subquery as a literal: its one value, or a NULL of its column's type where it gives no row
     * or a NULL (as in SQL); more than one row is an error, as in DuckDB and PostgreSQL.
     */
    private SqlNode scalar(SqlNode query) {
        QueryResult r = runInner(query);
        if (r.columnCount() != 1) {
            throw error(query, "42601", "a scalar subquery must give one column: it gave " + r.columnCount());
        }
        if (r.rowCount() > 1) {
            throw error(
                    query,
                    "21000",
                    "more than one row returned by a subquery used as an expression: rows=" + r.rowCount()
                            + " — a scalar subquery gives at most one row (add an aggregate or LIMIT 1)");
        }
        if (r.rowCount() == 0 || r.isNull(0, 0)) {
            return typedNull(r, query.getParserPosition());
        }
        return literal(r, 0, 0, query.getParserPosition());
    }

    /** {@code CAST(NULL AS type)} of the one column of {@code r}: the NULL keeps the column's type and scale. */
    private static SqlNode typedNull(QueryResult r, SqlParserPos pos) {
        String type = switch (r.columnTypes().get(0)) {
            case STRING -> "VARCHAR";
            case DATE -> "DATE";
            case INT -> "INTEGER";
            case LONG -> "BIGINT";
            case DOUBLE -> "DOUBLE";
            case DECIMAL -> "DECIMAL(18, " + r.scale(0) + ")";
            case BOOLEAN -> "BOOLEAN";
            case TIMESTAMP -> "TIMESTAMP";
        };
        SqlSelect select = (SqlSelect) io.numacube.engine.sql.SqlBinder.parse("SELECT CAST(NULL AS " + type + ")");
        return select.getSelectList().get(0);
    }

    /**
     * The values of an IN subquery: a {@link KeySetLiteral} where they are {@link #KEY_SET_VALUES} or more integers
     * without a NULL (a semi-join's keys, tested by a bit or a search per row, with no literal per key), else the list
     * of literals, NULLs included.
     */
    private SqlNode inList(SqlNode query) {
        String text = query + withTablesInScope();
        KeySetLiteral done = keySetsRun.get(text);
        if (done != null) {
            return done.clone(query.getParserPosition());
        }
        QueryResult r = runInner(query);
        if (r.columnCount() != 1) {
            throw error(query, "42601", "an IN subquery must give one column: it gave " + r.columnCount());
        }
        KeySetLiteral keys = keySet(r, query.getParserPosition());
        if (keys != null) {
            keySetsRun.put(text, keys);
            return keys;
        }
        if (r.rowCount() > MAX_IN_VALUES) {
            throw unsupported(query, "an IN subquery of more than " + MAX_IN_VALUES + " values");
        }
        SqlNodeList list = new SqlNodeList(query.getParserPosition());
        for (int row = 0; row < r.rowCount(); row++) {
            // a NULL among the values makes x IN (...) NULL where no value matches, as the NULL literal in a list does
            list.add(
                    r.isNull(row, 0)
                            ? SqlLiteral.createNull(query.getParserPosition())
                            : literal(r, row, 0, query.getParserPosition()));
        }
        return list;
    }

    /** An IN subquery of at least this many integer values gives a {@link KeySetLiteral}. */
    static final int KEY_SET_VALUES = 256;

    /** The system property that, {@code false}, lists every IN subquery's values as literals (no key sets). */
    static final String KEY_SETS_PROPERTY = "numacube.keySets";

    /** Whether IN subqueries of many keys give key sets ({@link #KEY_SETS_PROPERTY}, on unless {@code false}). */
    static boolean keySets() {
        return !"false".equals(System.getProperty(KEY_SETS_PROPERTY));
    }

    /**
     * The system property that, {@code false}, keeps the DISTINCT of {@link MagicSets}' subquery of an integer key's
     * outer keys; on unless {@code false}, that subquery lists the keys of the outer rows its filters pass as they
     * come and {@link #keySet} makes them distinct (a pass where they come in order, else a sort), not a grouping of
     * them over the key column's every code (TPC-H Q4: 57,218 order keys of one quarter, grouped over 1.5M codes of
     * {@code o_orderkey}). The semi-join's own subquery ({@link Decorrelation}) keeps its DISTINCT: its rows are not
     * filtered by the outer query, so may be many more than its keys (Q22: every order's customer).
     */
    static final String KEY_SETS_WITHOUT_DISTINCT_PROPERTY = "numacube.keySetsWithoutDistinct";

    /**
     * Whether {@link MagicSets}' subquery of an integer key, which gives a key set or a short list of literals (where
     * an equal key twice is as one), is written without DISTINCT: key sets on and {@link
     * #KEY_SETS_WITHOUT_DISTINCT_PROPERTY} not {@code false}; only where the keys are one table's (a join of tables
     * may repeat a key many times: TPC-H Q21).
     */
    static boolean keySetsWithoutDistinct() {
        return keySets() && !"false".equals(System.getProperty(KEY_SETS_WITHOUT_DISTINCT_PROPERTY));
    }

    /** The one integer column of {@code r} as a key set, or null where it is not one ({@link #inList}). */
    private static KeySetLiteral keySet(QueryResult r, SqlParserPos pos) {
        ColumnType type = r.columnTypes().get(0);
        int n = r.rowCount();
        if (!keySets()
                || n < KEY_SET_VALUES
                || (type != ColumnType.INT && type != ColumnType.LONG)
                || r.scale(0) != 0) {
            return null;
        }
        long[] keys = new long[n];
        boolean ascending = true;
        boolean nonDescending = true;
        for (int row = 0; row < n; row++) {
            if (r.isNull(row, 0)) {
                return null;
            }
            keys[row] = r.getLong(row, 0);
            ascending &= row == 0 || keys[row - 1] < keys[row];
            nonDescending &= row == 0 || keys[row - 1] <= keys[row];
        }
        if (!ascending) {
            if (!nonDescending) {
                java.util.Arrays.sort(keys);
            }
            int distinct = 0;
            for (int i = 0; i < n; i++) {
                if (i == 0 || keys[i] != keys[distinct - 1]) {
                    keys[distinct++] = keys[i];
                }
            }
            keys = java.util.Arrays.copyOf(keys, distinct);
        }
        return new KeySetLiteral(io.numacube.engine.plan.InValues.ofKeys(keys), pos);
    }

    private static SqlNode literal(QueryResult r, int row, int column, SqlParserPos pos) {
        return switch (r.columnTypes().get(column)) {
            case STRING -> SqlLiteral.createCharString(r.getString(row, column), pos);
            case DATE -> SqlLiteral.createDate(DateString.fromDaysSinceEpoch((int) r.getLong(row, column)), pos);
            case INT, LONG -> SqlLiteral.createExactNumeric(String.valueOf(r.getLong(row, column)), pos);
            case DOUBLE -> doubleLiteral(r.getDouble(row, column), pos);
            case DECIMAL ->
                SqlLiteral.createExactNumeric(r.getDecimal(row, column).toPlainString(), pos);
            case BOOLEAN -> SqlLiteral.createBoolean(r.getLong(row, column) != 0, pos);
            case TIMESTAMP ->
                SqlLiteral.createTimestamp(
                        new org.apache.calcite.util.TimestampString(
                                io.numacube.engine.schema.Timestamps.format(r.getLong(row, column))),
                        6,
                        pos);
        };
    }

    private static SqlNode doubleLiteral(double d, SqlParserPos pos) {
        if (!Double.isFinite(d)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "unsupported SQL: a subquery value that is not finite: " + d,
                    null,
                    null);
        }
        return SqlLiteral.createApproxNumeric(Double.toString(d), pos);
    }

    /**
     * Runs {@code query} and places its rows as a temporary table, or finds the table of the same query placed before
     * in this statement (the tables do not change while it runs); returns the table's name.
     */
    private String materialize(SqlNode query, String name, SqlNodeList columns) {
        for (Placed p : materialized) {
            if (p.same(query, columns)) {
                return p.temp();
            }
        }
        String temp = place(query, name, columns);
        materialized.add(new Placed(query, columns, temp));
        return temp;
    }

    /** {@link #materialize}, run. */
    private String place(SqlNode query, String name, SqlNodeList columns) {
        return place(run.apply(query), query, name, columns);
    }

    /** Places the rows of {@code r} (the answer of {@code query}) as a temporary table; returns its name. */
    private String place(QueryResult r, SqlNode query, String name, SqlNodeList columns) {
        List<ColumnSpec> specs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (columns != null && columns.size() != r.columnCount()) {
            throw error(columns, "42601", name + " names " + columns.size() + " columns for " + r.columnCount());
        }
        for (int c = 0; c < r.columnCount(); c++) {
            String col = columns != null
                    ? ((SqlIdentifier) columns.get(c)).getSimple()
                    : r.columnNames().get(c);
            if (!seen.add(col.toLowerCase(Locale.ROOT))) {
                throw error(query, "42701", name + " has two columns named " + col + " — give them aliases");
            }
            ColumnType type = r.columnTypes().get(c);
            specs.add(
                    type == ColumnType.DECIMAL
                            ? ColumnSpec.decimal(col, ColumnSpec.MAX_DECIMAL_PRECISION, r.scale(c))
                            : ColumnSpec.of(
                                    col,
                                    type == ColumnType.INT && plainInt(name, col, r.rowCount())
                                            ? ColumnType.LONG
                                            : type));
        }
        TableStaging staging = new TableStaging(new TableSchema("__" + name + "_" + (++counter), specs));
        staging.keepLongsPlain();
        io.numacube.engine.ingest.StagingBlock block =
                ResultBlock.enabled() ? ResultBlock.of(r, staging.schema()) : null;
        if (block != null) {
            staging.append(block);
        } else {
            staging.reserve(r.rowCount());
            ColumnType[] types = r.columnTypes().toArray(ColumnType[]::new);
            for (int row = 0; row < r.rowCount(); row++) {
                for (int c = 0; c < types.length; c++) {
                    set(staging, r, row, c, types[c]);
                }
                staging.endRow();
            }
        }
        load.accept(staging);
        return staging.schema().name();
    }

    /**
     * Whether an INT column of a temporary table of {@code rows} rows is held as plain BIGINT: a large table's, and at
     * any size a key column that a decorrelated subquery's table is joined INNER by (only joined on, never an answer's
     * column), which a dictionary would code value by value at every run (TPC-H Q4's 57,000 keys). A NOT EXISTS
     * table's keys, joined LEFT, stay coded: plain, TPC-H Q22 ran slower.
     */
    private static boolean plainInt(String table, String column, int rows) {
        return rows > CODED_INT_ROWS || DerivedTables.isInnerJoinKey(table, column);
    }

    private static void set(TableStaging staging, QueryResult r, int row, int c, ColumnType t) {
        if (r.isNull(row, c)) {
            staging.setNull(c);
            return;
        }
        switch (t) {
            case STRING -> staging.setString(c, r.getString(row, c));
            case DATE -> staging.setDate(c, (int) r.getLong(row, c));
            case INT, LONG, TIMESTAMP -> staging.setLong(c, r.getLong(row, c));
            case DOUBLE -> staging.setDouble(c, r.getDouble(row, c));
            case BOOLEAN -> staging.setBoolean(c, r.getLong(row, c) != 0);
            case DECIMAL ->
                staging.setLong(c, r.getDecimal(row, c).unscaledValue().longValueExact());
        }
    }

    private static NumacubeException unsupported(SqlNode at, String what) {
        return error(at, "0A000", "unsupported SQL: " + what);
    }

    /** An error of {@code code} at {@code at}'s position in the statement (none when the node has no position). */
    static NumacubeException error(SqlNode at, String code, String message) {
        SqlParserPos p = at.getParserPosition();
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                code,
                message,
                p == null || p.getLineNum() < 1 ? null : ErrorPosition.sql(p.getLineNum(), p.getColumnNum()),
                null);
    }
}
