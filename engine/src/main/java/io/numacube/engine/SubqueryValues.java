package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.sql.KeySetLiteral;
import io.numacube.numa.base.NumacubeException;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.DateString;

/**
 * A subquery's answer as the values a statement holds in its place ({@link Subqueries}): a scalar subquery's one value
 * as a literal (a NULL of its column's type where it gives no row), an {@code IN (SELECT ...)}'s values as a list of
 * literals or, for many integers, as a {@link KeySetLiteral}; and the switches that turn key sets off.
 *
 * <p>Invariants: a literal has its value's column type (a DECIMAL's scale, a TIMESTAMP's microseconds), so the
 * statement binds as over the subquery itself; a key set holds each key once, ascending, and is given only where the
 * values are {@link #KEY_SET_VALUES} or more integers without a NULL. Errors name the subquery's position. Stateless
 * and thread-safe.
 */
final class SubqueryValues {

    /** Most values an {@code IN (SELECT ...)} subquery may give. */
    static final int MAX_IN_VALUES = 1_000_000;

    private SubqueryValues() {}

    /**
     * The value of a scalar subquery's answer {@code r} as a literal: its one value, or a NULL of its column's type
     * where it gives no row or a NULL (as in SQL); more than one row is an error, as in DuckDB and PostgreSQL.
     */
    static SqlNode scalar(QueryResult r, SqlNode query) {
        if (r.columnCount() != 1) {
            throw Subqueries.error(
                    query, "42601", "a scalar subquery must give one column: it gave " + r.columnCount());
        }
        if (r.rowCount() > 1) {
            throw Subqueries.error(
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
     * The values of an IN subquery's answer {@code r}: a {@link KeySetLiteral} where they are {@link
     * #KEY_SET_VALUES} or more integers without a NULL (a semi-join's keys, tested by a bit or a search per row, with
     * no literal per key), else the list of literals, NULLs included.
     */
    static SqlNode in(QueryResult r, SqlNode query) {
        if (r.columnCount() != 1) {
            throw Subqueries.error(query, "42601", "an IN subquery must give one column: it gave " + r.columnCount());
        }
        KeySetLiteral keys = keySet(r, query.getParserPosition());
        if (keys != null) {
            return keys;
        }
        if (r.rowCount() > MAX_IN_VALUES) {
            throw Subqueries.unsupported(query, "an IN subquery of more than " + MAX_IN_VALUES + " values");
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

    /** The one integer column of {@code r} as a key set, or null where it is not one ({@link #in}). */
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
}
