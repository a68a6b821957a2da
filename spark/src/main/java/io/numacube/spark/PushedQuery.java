package io.numacube.spark;

import java.io.Serializable;
import java.util.List;

/**
 * What a scan asks every shard: its select list, the pushed conditions, for a pushed aggregate the grouping columns,
 * and a pushed LIMIT (with the ORDER BY of a pushed top-N). Each shard answers it over its own rows; Spark merges the
 * answers (a union of rows, or its final aggregation over the shards' partial ones) and, for a pushed LIMIT or top-N,
 * still applies its own: each shard's first {@code limit} rows hold the union's first {@code limit}. Immutable.
 *
 * @param table     the table, as the shards spell it
 * @param select    SQL select expressions, one per column of the scan's schema (empty: no column, rows only)
 * @param where     SQL conditions joined by AND (empty: all rows)
 * @param groupBy   SQL grouping columns of a pushed aggregate (empty: none, or an aggregate without GROUP BY)
 * @param aggregate whether the select list is a pushed aggregate
 * @param orderBy   SQL sort keys of a pushed top-N, each with its direction and NULLS FIRST or LAST (empty: none)
 * @param limit     the most rows each shard returns, or -1 for no limit
 * @param offset    the rows skipped before them (0: none); only where one server answers the whole table
 */
record PushedQuery(
        String table,
        List<String> select,
        List<String> where,
        List<String> groupBy,
        boolean aggregate,
        List<String> orderBy,
        int limit,
        int offset)
        implements Serializable {

    PushedQuery(String table, List<String> select, List<String> where, List<String> groupBy, boolean aggregate) {
        this(table, select, where, groupBy, aggregate, List.of(), -1, 0);
    }

    /** This query with each shard's answer cut to its first {@code rows} rows by {@code order} (empty: any rows). */
    PushedQuery limited(List<String> order, int rows) {
        return new PushedQuery(table, select, where, groupBy, aggregate, List.copyOf(order), rows, offset);
    }

    /** This query with its first {@code rows} rows (after the ORDER BY, before the LIMIT) skipped. */
    PushedQuery offset(int rows) {
        return new PushedQuery(table, select, where, groupBy, aggregate, orderBy, limit, rows);
    }

    /** This query over the rows that also meet {@code condition} (one range of a split scan: {@link ScanSplit}). */
    PushedQuery where(String condition) {
        List<String> all = new java.util.ArrayList<>(where);
        all.add(condition);
        return new PushedQuery(table, select, List.copyOf(all), groupBy, aggregate, orderBy, limit, offset);
    }

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
        if (!orderBy.isEmpty()) {
            sql.append(" ORDER BY ").append(String.join(", ", orderBy));
        }
        if (limit >= 0) {
            sql.append(" LIMIT ").append(limit);
        }
        if (offset > 0) {
            sql.append(" OFFSET ").append(offset);
        }
        return sql.toString();
    }
}
