package io.numacube.spark;

import java.io.Serializable;
import java.util.List;

/**
 * What a scan asks every shard: its select list, the pushed conditions and, for a pushed aggregate, the grouping
 * columns. Each shard answers it over its own rows; Spark merges the answers (a union of rows, or its final
 * aggregation over the shards' partial ones). Immutable.
 *
 * @param table   the table, as the shards spell it
 * @param select  SQL select expressions, one per column of the scan's schema (empty: no column, rows only)
 * @param where   SQL conditions joined by AND (empty: all rows)
 * @param groupBy SQL grouping columns of a pushed aggregate (empty: none, or an aggregate without GROUP BY)
 * @param aggregate whether the select list is a pushed aggregate
 */
record PushedQuery(String table, List<String> select, List<String> where, List<String> groupBy, boolean aggregate)
        implements Serializable {

    String sql() {
        StringBuilder sql = new StringBuilder("SELECT ")
                .append(select.isEmpty() ? "1" : String.join(", ", select))
                .append(" FROM ")
                .append(SqlFilters.column(table));
        if (!where.isEmpty()) {
            sql.append(" WHERE ")
                    .append(String.join(
                            " AND ", where.stream().map(w -> "(" + w + ")").toList()));
        }
        if (!groupBy.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", groupBy));
        }
        return sql.toString();
    }
}
