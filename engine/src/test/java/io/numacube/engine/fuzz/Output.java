package io.numacube.engine.fuzz;

/**
 * One select-list item of a generated query and how its values are compared: a group key exactly; a SUM or AVG of
 * doubles within a tolerance scaled by the magnitudes of its argument ({@code argument}, a row expression, summed or
 * maxed by DuckDB over the joined rows); anything else exactly when an integer, within a relative tolerance when a
 * double. Immutable.
 *
 * @param sql      the item as written
 * @param kind     how its values are compared
 * @param argument the SUM or AVG argument whose magnitude scales the tolerance; null otherwise
 */
record Output(String sql, Kind kind, String argument) {

    /** How an output's values are compared. */
    enum Kind {
        /** A group key. */
        KEY,
        /** A group key that is not selected (GROUP BY and ORDER BY name it); not in the result. */
        HIDDEN_KEY,
        /** COUNT(*) or COUNT(x): an integer whatever the data, so it may sort before the keys. */
        COUNT,
        /** SUM of an expression. */
        SUM,
        /** AVG of an expression. */
        AVG,
        /** MIN, MAX, or arithmetic of aggregates. */
        OTHER
    }

    boolean isKey() {
        return kind == Kind.KEY || kind == Kind.HIDDEN_KEY;
    }

    static Output key(String sql) {
        return new Output(sql, Kind.KEY, null);
    }
}
