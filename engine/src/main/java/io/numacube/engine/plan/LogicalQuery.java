package io.numacube.engine.plan;

import java.util.List;

/**
 * A bound aggregation query: scan {@code fact} [inner-join {@code lookup} on one key], filter by {@code where}, group
 * by {@code groupKeys}, compute {@code aggregates}, then compute {@code outputs}, filter by {@code having}, order and
 * cut. Output-level expressions use {@link Expr.KeyRef} and {@link Expr.AggRef}. Immutable.
 *
 * @param fact           the fact table name
 * @param lookup         the lookup table name, or null without a join
 * @param factJoinColumn the fact table's join key column, or -1
 * @param lookupJoinColumn the lookup table's join key column, or -1
 * @param where          the row filter, or null
 * @param groupKeys      what to group by, in GROUP BY order: fact dimension columns, columns of the joined table, or
 *                       expressions of one such column; empty for one global group
 * @param aggregates     distinct aggregates used anywhere in the query
 * @param outputs        the select list
 * @param having         the group filter, or null
 * @param orderBy        sort keys over outputs, in order
 * @param limit          most rows returned, or -1
 * @param offset         rows skipped before the limit
 */
public record LogicalQuery(
        String fact,
        String lookup,
        int factJoinColumn,
        int lookupJoinColumn,
        Expr where,
        List<Expr> groupKeys,
        List<Expr.Agg> aggregates,
        List<Output> outputs,
        Expr having,
        List<Order> orderBy,
        long limit,
        long offset) {

    public LogicalQuery {
        groupKeys = List.copyOf(groupKeys);
        aggregates = List.copyOf(aggregates);
        outputs = List.copyOf(outputs);
        orderBy = List.copyOf(orderBy);
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
        if (lookup != null) {
            sb.append(" join ").append(lookup);
        }
        if (where != null) {
            sb.append(" where ").append(where.text());
        }
        sb.append(" group by ").append(groupKeys.stream().map(Expr::text).toList());
        sb.append(" aggregate ").append(aggregates.stream().map(Expr::text).toList());
        return sb.toString();
    }
}
