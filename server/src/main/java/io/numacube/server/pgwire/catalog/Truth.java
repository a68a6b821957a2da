package io.numacube.server.pgwire.catalog;

/**
 * SQL's three-valued logic over a catalog row, where the third value is "not known here": a row of one of
 * PostgreSQL's own relations ({@link SystemRelations}) has values numacube does not model (its columns' names), and a
 * condition over them may hold or not. A row is answered only when its condition is {@link #TRUE}; a query whose
 * condition is not {@link #FALSE} for some such row would have rows numacube cannot give, so it is refused. Immutable.
 */
enum Truth {
    TRUE,
    FALSE,
    UNKNOWN;

    static Truth of(boolean b) {
        return b ? TRUE : FALSE;
    }

    Truth and(Truth other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        return this == TRUE && other == TRUE ? TRUE : UNKNOWN;
    }

    Truth or(Truth other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        return this == FALSE && other == FALSE ? FALSE : UNKNOWN;
    }

    Truth not() {
        return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
    }
}
