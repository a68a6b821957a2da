package io.numacube.server.query;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statements {@code numacube serve} refuses before the engine sees them, with PostgreSQL's codes: writes other than
 * appends, updates and deletes (MERGE, DDL such as CREATE or DROP, ...) with 0A000, since the server appends rows
 * (INSERT ... VALUES, COPY ... FROM STDIN, POST /v1/tables/NAME/rows; an upsert where the table has a key), changes
 * them (UPDATE) and deletes them (DELETE) and changes nothing else; utility commands it does not have (LISTEN, VACUUM, SQL-level PREPARE, ...)
 * with 0A000. INSERT, COPY, UPDATE and DELETE are answered by the front ends before this is asked. Stateless.
 */
public final class StatementRefusals {

    private static final Pattern FIRST_WORD = Pattern.compile("^\\(*\\s*([A-Za-z]+)");
    private static final java.util.Set<String> WRITES = java.util.Set.of(
            "MERGE",
            "CREATE",
            "DROP",
            "ALTER",
            "TRUNCATE",
            "GRANT",
            "REVOKE",
            "COMMENT",
            "REFRESH",
            "IMPORT",
            "REINDEX",
            "CLUSTER",
            "VACUUM",
            "ANALYZE",
            "SECURITY",
            "REASSIGN");
    private static final java.util.Set<String> UTILITIES = java.util.Set.of(
            "LISTEN",
            "NOTIFY",
            "UNLISTEN",
            "PREPARE",
            "EXECUTE",
            "CALL",
            "DO",
            "LOCK",
            "CHECKPOINT",
            "LOAD",
            "FETCH",
            "MOVE",
            "DECLARE",
            "CLOSE");

    private StatementRefusals() {}

    /** Why {@code sql} (one statement, comments allowed) is refused, or empty when it may run. */
    public static Optional<ClientError> refusal(String sql) {
        Matcher m = FIRST_WORD.matcher(SqlLexer.normalize(sql));
        if (!m.find()) {
            return Optional.empty();
        }
        String word = m.group(1).toUpperCase(Locale.ROOT);
        if (WRITES.contains(word)) {
            return Optional.of(
                    ClientError.of(
                            ClientError.NOT_SUPPORTED,
                            word
                                    + " is not supported by numacube serve: it appends rows (INSERT ... VALUES, COPY ... FROM"
                                    + " STDIN, POST /v1/tables/NAME/rows; upserts by a table's key) and deletes them (DELETE)"));
        }
        if (word.equals("COPY")) {
            return Optional.of(ClientError.of(
                    ClientError.NOT_SUPPORTED,
                    "COPY is not taken here: send rows with POST /v1/tables/NAME/rows, or COPY ... FROM STDIN over the"
                            + " PostgreSQL protocol"));
        }
        if (UTILITIES.contains(word)) {
            return Optional.of(ClientError.of(ClientError.NOT_SUPPORTED, word + " is not supported by numacube"));
        }
        return Optional.empty();
    }
}
