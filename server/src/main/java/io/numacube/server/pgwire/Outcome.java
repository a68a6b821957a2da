package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.query.ClientError;

/**
 * What one statement produced: rows (a query, {@code SHOW}) or a command's completion tag ({@code BEGIN},
 * {@code SET}, ...), and a warning to send as a NoticeResponse before it (PostgreSQL warns, for example, on a
 * {@code BEGIN} inside a transaction). Immutable.
 *
 * @param rows    the rows, or null for a command
 * @param verb    the completion tag's verb: {@code SELECT} or {@code FETCH} (followed by the row count), {@code SHOW}, or a command's
 *                whole tag
 * @param warning a notice, or null
 */
record Outcome(RowSet rows, String verb, ClientError warning) {

    static Outcome rows(RowSet rows) {
        return new Outcome(rows, "SELECT", null);
    }

    /** The rows a FETCH of a cursor answers; its tag counts them ({@code FETCH 10}). */
    static Outcome fetched(RowSet rows) {
        return new Outcome(rows, "FETCH", null);
    }

    static Outcome command(String tag) {
        return new Outcome(null, tag, null);
    }

    Outcome withWarning(String sqlState, String message) {
        return new Outcome(rows, verb, ClientError.of(sqlState, message));
    }

    /** The CommandComplete tag after {@code rowsSent} rows: {@code SELECT 42}, {@code FETCH 10}, {@code SHOW}. */
    String tag(int rowsSent) {
        return verb.equals("SELECT") || verb.equals("FETCH") ? verb + " " + rowsSent : verb;
    }
}
