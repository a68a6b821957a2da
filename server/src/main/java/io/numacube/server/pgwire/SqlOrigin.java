package io.numacube.server.pgwire;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.server.query.ParameterizedSql;
import io.numacube.server.query.SqlPositions;

/**
 * Where a statement the engine ran came from, to give an error's position as PostgreSQL does: the 1-based character
 * in the query string the client sent. A statement is a slice of that string (at {@code offset}), and a bound one
 * has literals in place of its parameter markers ({@code bound}), whose positions map back to the markers. Immutable.
 *
 * @param clientText the query string of the Query or Parse message
 * @param offset     the UTF-16 index in it where the statement starts
 * @param bound      the substitution, or null for a statement without parameters
 */
record SqlOrigin(String clientText, int offset, ParameterizedSql.Substituted bound) {

    /** PostgreSQL's position of {@code at}, a line and column in {@code ranSql}, the text the engine ran. */
    int position(ErrorPosition at, String ranSql) {
        int index = SqlPositions.index(ranSql, at.line(), at.column());
        if (bound != null) {
            index = bound.originalIndex(index);
        }
        return SqlPositions.characterPosition(clientText, Math.min(clientText.length(), offset + index));
    }
}
