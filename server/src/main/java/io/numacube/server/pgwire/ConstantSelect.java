package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers the FROM-less SELECTs that clients and connection pools send and the engine does not run: each item an
 * integer, a string, TRUE, FALSE, NULL, {@code version()}, {@code current_database()}, {@code current_schema[()]},
 * {@code current_user}, {@code session_user}, {@code current_catalog}, {@code pg_backend_pid()},
 * {@code pg_is_in_recovery()}, {@code current_setting('name')} or a clock function ({@code now()}, {@code
 * current_timestamp}, {@code localtimestamp}, {@code current_date}, {@code statement_timestamp()}, {@code
 * clock_timestamp()}, {@link #clock}), optionally with {@code [AS] alias}: as in
 * {@code SELECT 1}, {@code SELECT version()}, {@code SELECT current_schema(), current_user}. Column names and types
 * are PostgreSQL's ({@code ?column?} for a literal). Anything else is not one and goes to the engine. Stateless.
 */
final class ConstantSelect {

    private static final Pattern SELECT = Pattern.compile("(?is)SELECT (.+)");
    private static final Pattern ALIAS =
            Pattern.compile("(?is)(.+?)(?: (?:AS )?(\"(?:[^\"]++|\"\")+\"|[A-Za-z_][A-Za-z0-9_]*))?");
    private static final Pattern FUNCTION = Pattern.compile("(?i)(?:pg_catalog\\.)?([a-z_]+) ?\\( ?\\)");
    private static final Pattern SETTING = Pattern.compile(
            "(?i)(?:pg_catalog\\.)?current_setting ?\\( ?'((?:[^']++|'')*)' ?(?:, ?(?:true|false) ?)?\\)");

    private ConstantSelect() {}

    /** The answer, or empty when {@code sql} is not such a SELECT. */
    static Optional<RowSet> answer(String sql, Session session, String version) {
        Matcher m = SELECT.matcher(SqlLexer.normalize(sql));
        if (!m.matches()) {
            return Optional.empty();
        }
        List<PgColumn> columns = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (String item : SqlLexer.splitTopLevel(m.group(1))) {
            if (!item(item, session, version, columns, values)) {
                return Optional.empty();
            }
        }
        return Optional.of(new FixedRows(columns, List.<Object[]>of(values.toArray())));
    }

    private static boolean item(
            String item, Session session, String version, List<PgColumn> columns, List<Object> values) {
        Matcher a = ALIAS.matcher(item.strip());
        if (!a.matches()) {
            return false;
        }
        String expr = a.group(1).strip();
        String alias = a.group(2);
        PgColumn column = evaluate(expr, session, version, values);
        if (column == null && alias != null) {
            expr = item.strip();
            alias = null;
            column = evaluate(expr, session, version, values);
        }
        if (column == null) {
            return false;
        }
        String name = alias == null
                ? column.name()
                : alias.startsWith("\"")
                        ? alias.substring(1, alias.length() - 1).replace("\"\"", "\"")
                        : alias.toLowerCase(Locale.ROOT);
        columns.add(new PgColumn(name, column.type(), -1));
        return true;
    }

    /**
     * PostgreSQL's clock functions: of the transaction, {@code now()}, {@code transaction_timestamp()} and {@code
     * current_timestamp} (a {@code timestamptz} in the session's zone), {@code localtimestamp} (a {@code timestamp})
     * and {@code current_date}; {@code statement_timestamp()}, when the client's latest message arrived ({@link
     * Session#statementClock}); and {@code clock_timestamp()}, the system clock when the item is evaluated, each call
     * read anew as PostgreSQL's is. Named as PostgreSQL names them; null for another item.
     */
    private static PgColumn clock(String name, boolean call, Session session, List<Object> values) {
        PgType type = switch (name) {
            case "now", "transaction_timestamp", "statement_timestamp", "clock_timestamp" ->
                call ? PgType.TIMESTAMPTZ : null;
            case "current_timestamp" -> call ? null : PgType.TIMESTAMPTZ;
            case "localtimestamp" -> call ? null : PgType.TIMESTAMP;
            case "current_date" -> call ? null : PgType.DATE;
            default -> null;
        };
        if (type == null) {
            return null;
        }
        java.time.OffsetDateTime t = switch (name) {
            case "statement_timestamp" -> session.statementClock();
            case "clock_timestamp" -> TransactionClock.zoned(TransactionClock.now(), session.settings.get("TimeZone"));
            default -> session.zonedClock();
        };
        values.add(type == PgType.TIMESTAMPTZ ? t : type == PgType.TIMESTAMP ? t.toLocalDateTime() : t.toLocalDate());
        return PgColumn.of(name, type);
    }

    /** The column an expression makes (its value appended to {@code values}), or null when it is not known. */
    private static PgColumn evaluate(String expr, Session session, String version, List<Object> values) {
        String e = expr.toLowerCase(Locale.ROOT);
        if (e.matches("[+-]?\\d{1,18}")) {
            long v = Long.parseLong(e);
            values.add(v);
            return PgColumn.of("?column?", v == (int) v ? PgType.INT4 : PgType.INT8);
        }
        if (expr.matches("'(?:[^']++|'')*'")) {
            values.add(expr.substring(1, expr.length() - 1).replace("''", "'"));
            return PgColumn.of("?column?", PgType.TEXT);
        }
        Matcher setting = SETTING.matcher(expr);
        if (setting.matches()) {
            values.add(session.settings.get(setting.group(1).replace("''", "'")));
            return PgColumn.of("current_setting", PgType.TEXT);
        }
        Matcher f = FUNCTION.matcher(expr);
        String name = f.matches() ? f.group(1).toLowerCase(Locale.ROOT) : e;
        PgColumn clock = clock(name, f.matches(), session, values);
        if (clock != null) {
            return clock;
        }
        Object value = switch (name) {
            case "true" -> f.matches() ? null : Boolean.TRUE;
            case "false" -> f.matches() ? null : Boolean.FALSE;
            case "version" -> f.matches() ? version : null;
            case "current_database", "current_catalog" -> session.database;
            case "current_schema" -> "public";
            case "current_user", "session_user", "user", "current_role" -> f.matches() ? null : session.user;
            case "pg_backend_pid" -> f.matches() ? (long) session.processId : null;
            case "pg_is_in_recovery" -> f.matches() ? Boolean.FALSE : null;
            default -> null;
        };
        if (value == null) {
            if (!name.equals("null") || f.matches()) {
                return null;
            }
            values.add(null);
            return PgColumn.of("?column?", PgType.TEXT);
        }
        values.add(value);
        PgType type = switch (value) {
            case Boolean b -> PgType.BOOL;
            case Long l -> PgType.INT4;
            default -> name.equals("version") ? PgType.TEXT : PgType.NAME;
        };
        return PgColumn.of(value instanceof Boolean && !f.matches() ? "bool" : name, type);
    }
}
