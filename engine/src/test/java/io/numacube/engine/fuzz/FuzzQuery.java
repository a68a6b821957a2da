package io.numacube.engine.fuzz;

import java.util.List;
import java.util.Set;

/**
 * A generated query: its SQL, the select-list items and how each is compared, whether ORDER BY fixes the row order,
 * the FROM clause (to ask DuckDB for the magnitudes that scale a tolerance), and the constructs it uses. Immutable.
 *
 * @param sql     the statement
 * @param outputs its select-list items, in order
 * @param ordered whether its ORDER BY names every group key, so the row order is fixed
 * @param from    its FROM clause
 * @param core    the statement without HAVING, ORDER BY, LIMIT and OFFSET: every group's aggregates
 * @param tags    the constructs it uses ({@code join:on}, {@code where:in}, {@code null:is-null}, ...)
 */
record FuzzQuery(String sql, List<Output> outputs, boolean ordered, String from, String core, Set<String> tags) {

    /** Indexes of the group-key outputs. */
    int[] keyColumns() {
        return java.util.stream.IntStream.range(0, outputs.size())
                .filter(i -> outputs.get(i).kind() == Output.Kind.KEY)
                .toArray();
    }
}
