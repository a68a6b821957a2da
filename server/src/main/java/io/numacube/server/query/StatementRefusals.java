package io.numacube.server.query;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statements {@code numacube serve} refuses before the engine sees them, with PostgreSQL's codes: writes (INSERT,
 * UPDATE, DELETE, CREATE, ...) with 25006, as PostgreSQL refuses them in a read-only transaction, since this phase
 * of the server holds the data it loaded and takes no writes; utility commands it does not have (COPY, LISTEN,
 * VACUUM, SQL-level PREPARE, ...) with 0A000. Stateless.
 */
public final class StatementRefusals {

    private static final Pattern FIRST_WORD = Pattern.compile("^\\(*\\s*([A-Za-z]+)");
    private static final java.util.Set<String> WRITES = java.util.Set.of(
            "INSERT",
            "UPDATE",
            "DELETE",
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
            "COPY",
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
            "CLOSE",
            "SAVEPOINT",
            "RELEASE");

    private StatementRefusals() {}

    /** Why {@code sql} (one statement, comments allowed) is refused, or empty when it may run. */
    public static Optional<ClientError> refusal(String sql) {
        Matcher m = FIRST_WORD.matcher(SqlLexer.normalize(sql));
        if (!m.find()) {
            return Optional.empty();
        }
        String word = m.group(1).toUpperCase(Locale.ROOT);
        if (WRITES.contains(word)) {
            return Optional.of(ClientError.of(
                    "25006",
                    "cannot execute " + word + " in a read-only transaction: numacube serve holds the data it loaded"
                            + " and takes no writes yet"));
        }
        if (UTILITIES.contains(word)) {
            return Optional.of(ClientError.of(ClientError.NOT_SUPPORTED, word + " is not supported by numacube"));
        }
        return Optional.empty();
    }
}
