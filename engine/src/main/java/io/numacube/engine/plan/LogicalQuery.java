package io.numacube.engine.plan;

import java.util.List;

/**
 * A bound aggregation query: scan {@code fact} [joined to dimension tables], filter by {@code where}, group
 * by {@code groupKeys}, compute {@code aggregates}, then compute {@code outputs}, filter by {@code having}, order and
 * cut. Output-level expressions use {@link Expr.KeyRef} and {@link Expr.AggRef}. Immutable.
 *
 * @param fact           the fact table name
 * @param joins          the dimension tables joined, in FROM order (a star, or a snowflake: a dimension joined to an
 *                       earlier one); their columns are {@link Expr.Side#LOOKUP} columns numbered one after another
 * @param where          the row filter, or null
 * @param groupKeys      what to group by, in GROUP BY order: fact dimension columns, columns of the joined table, or
 *                       expressions of one such column; empty for one global group
 * @param aggregates     distinct aggregates used anywhere in the query
 * @param outputs        the select list
 * @param having         the group filter, or null
 * @param orderBy        sort keys over outputs, in order
 * @param limit          most rows returned, or -1
 * @param offset         rows skipped before the limit
 * @param rows           a plain projection (no GROUP BY, no aggregate): {@code outputs} and {@code orderBy} are
 *                       row-level expressions, one result row per fact row that passes {@code where}
 */
public record LogicalQuery(
        String fact,
        List<Join> joins,
        Expr where,
        List<Expr> groupKeys,
        List<Expr.Agg> aggregates,
        List<Output> outputs,
        Expr having,
        List<Order> orderBy,
        long limit,
        long offset,
        boolean rows) {

    public LogicalQuery {
        joins = List.copyOf(joins);
        groupKeys = List.copyOf(groupKeys);
        aggregates = List.copyOf(aggregates);
        outputs = List.copyOf(outputs);
        orderBy = List.copyOf(orderBy);
    }

    /**
     * One joined dimension table: {@code table.keyColumns[i] = parent.parentColumns[i]} for every i, where the parent
     * is the fact table ({@code parent == -1}) or an earlier join. Its column {@code i} is the LOOKUP column {@code
     * firstColumn + i}. A key of several columns (TPC-H's {@code partsupp} on {@code (ps_partkey, ps_suppkey)}) is
     * unique as a whole; each of its columns alone need not be.
     *
     * @param table         the dimension table's name
     * @param parent        -1 for the fact table, else the index of the join it hangs from
     * @param parentColumns the key columns in the parent table (empty while a binder has not found them yet)
     * @param keyColumns    the key columns in this table, as many, in the same order (unique together in it)
     * @param left          LEFT JOIN (a fact row without a match keeps NULL attributes) rather than INNER
     * @param firstColumn   the LOOKUP index of this table's column 0
     */
    public record Join(
            String table,
            int parent,
            List<Integer> parentColumns,
            List<Integer> keyColumns,
            boolean left,
            int firstColumn) {

        public Join {
            parentColumns = List.copyOf(parentColumns);
            keyColumns = List.copyOf(keyColumns);
            if (parentColumns.size() != keyColumns.size()) {
                throw new IllegalArgumentException(
                        "a join needs as many parent columns as key columns: " + parentColumns + " " + keyColumns);
            }
        }

        /** The position of this table's column {@code column} among its key columns, or -1. */
        public int keyPosition(int column) {
            return keyColumns.indexOf(column);
        }
    }

    /** The join whose table holds LOOKUP column {@code column}. */
    public int joinOf(int column) {
        int j = 0;
        for (int i = 0; i < joins.size(); i++) {
            if (joins.get(i).firstColumn() <= column) {
                j = i;
            }
        }
        return j;
    }

    /** One select item. */
    public record Output(String name, Expr expr) {}

    /**
     * One ORDER BY item.
     *
     * @param expr       output-level expression
     * @param descending DESC
     * @param nullsFirst nulls before values
     */
    public record Order(Expr expr, boolean descending, boolean nullsFirst) {}

    /** A readable form for logs and stats. */
    public String describe() {
        StringBuilder sb = new StringBuilder("scan ").append(fact);
        for (Join j : joins) {
            sb.append(j.left() ? " left join " : " join ").append(j.table());
        }
        if (where != null) {
            sb.append(" where ").append(where.text());
        }
        sb.append(" group by ").append(groupKeys.stream().map(Expr::text).toList());
        sb.append(" aggregate ").append(aggregates.stream().map(Expr::text).toList());
        return sb.toString();
    }
}
