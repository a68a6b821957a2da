package io.numacube.server.pgwire;

import io.numacube.server.query.ClientError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A connection's run-time parameters, as {@code SET}, {@code SHOW} and {@code RESET} see them: PostgreSQL's names
 * (case-insensitive) and defaults for those clients read ({@code server_version}, {@code DateStyle},
 * {@code TimeZone}, ...), and any other name a client sets, stored as given. Values that would change what the
 * server sends are checked: {@code client_encoding} must be UTF8 (or SQL_ASCII), {@code DateStyle} ISO and
 * {@code standard_conforming_strings} on, since numacube writes only those. {@code statement_timeout} sets the
 * connection's query deadline. The parameters PostgreSQL reports to clients ({@link #reported}) are sent in
 * ParameterStatus messages at startup and when set. Not thread-safe: one connection's thread uses it.
 */
final class SessionSettings {

    private static final List<String> REPORTED = List.of(
            "server_version",
            "server_encoding",
            "client_encoding",
            "application_name",
            "DateStyle",
            "IntervalStyle",
            "TimeZone",
            "integer_datetimes",
            "standard_conforming_strings",
            "is_superuser",
            "session_authorization",
            "default_transaction_read_only",
            "in_hot_standby");
    /**
     * Set only for the transaction under way (as by SET LOCAL, also by a plain SET, BEGIN READ ONLY and SET
     * TRANSACTION): absent, it reads {@code default_transaction_read_only}.
     */
    static final String TRANSACTION_READ_ONLY = "transaction_read_only";

    private static final Pattern DURATION =
            Pattern.compile("\\s*(\\d+)\\s*(ms|s|min|h|d)?\\s*", Pattern.CASE_INSENSITIVE);

    private final Map<String, String> defaults = new LinkedHashMap<>();
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();
    /** In a block, each name SET LOCAL there and the value to go back to when it ends (empty: none). */
    private final Map<String, Optional<String>> localBefore = new HashMap<>();
    /**
     * The values when the transaction under way began (explicit, or the implicit one of a statement, a simple query of
     * several statements or a batch before Sync), taken at its first change or its BEGIN; null while it changed none.
     */
    private Mark transactionStart;

    SessionSettings(String user, String applicationName, String serverVersion, Duration defaultTimeout) {
        define("server_version", serverVersion);
        define("server_version_num", serverVersion.replaceAll("^(\\d+)\\.(\\d+).*", "$1") + "0000");
        define("server_encoding", "UTF8");
        define("client_encoding", "UTF8");
        define("application_name", applicationName);
        define("DateStyle", "ISO, MDY");
        define("IntervalStyle", "postgres");
        define("TimeZone", TransactionClock.defaultSetting());
        define("integer_datetimes", "on");
        define("standard_conforming_strings", "on");
        define("is_superuser", "off");
        define("session_authorization", user);
        define("default_transaction_read_only", "off");
        names.put(TRANSACTION_READ_ONLY, "transaction_read_only");
        define("in_hot_standby", "off");
        define("default_transaction_isolation", "read committed");
        define("transaction_isolation", "read committed");
        define("search_path", "\"$user\", public");
        define("extra_float_digits", "1");
        define("max_identifier_length", "63");
        define("statement_timeout", milliseconds(defaultTimeout));
        define("lc_messages", "C");
        define("lc_monetary", "C");
        define("lc_numeric", "C");
        define("lc_time", "C");
        define("bytea_output", "hex");
    }

    private void define(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        names.put(key, name);
        defaults.put(key, value);
        values.put(key, value);
    }

    /**
     * The startup packet's parameters are applied: the values now are what RESET and RESET ALL go back to, as
     * PostgreSQL's defaults for the session are the client's startup values (pgjdbc sends its JVM's TimeZone), and no
     * transaction is under way.
     */
    void startupApplied() {
        defaults.clear();
        defaults.putAll(values);
        transactionStart = null;
    }

    /** The parameters PostgreSQL reports to a client at startup, with their values. */
    Map<String, String> reported() {
        Map<String, String> out = new LinkedHashMap<>();
        REPORTED.forEach(n -> out.put(n, values.get(n.toLowerCase(Locale.ROOT))));
        return out;
    }

    /** Whether a change of {@code name} is reported to the client with a ParameterStatus. */
    boolean isReported(String name) {
        return REPORTED.stream().anyMatch(name::equalsIgnoreCase);
    }

    /** The parameter's name as PostgreSQL spells it ({@code TimeZone}), or {@code name} for one it does not know. */
    String canonicalName(String name) {
        return names.getOrDefault(name.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
    }

    /** @throws PgProtocolException 42704 for a parameter that was never set and has no default */
    String get(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        String v = values.get(key);
        if (v == null && key.equals(TRANSACTION_READ_ONLY)) {
            v = values.get("default_transaction_read_only");
        }
        if (v == null) {
            throw new PgProtocolException("42704", "unrecognized configuration parameter \"" + name + "\"");
        }
        return v;
    }

    /** Every parameter with a value, in definition order. */
    List<String[]> all() {
        List<String[]> out = new ArrayList<>();
        values.forEach((k, v) -> out.add(new String[] {names.getOrDefault(k, k), v}));
        if (!values.containsKey(TRANSACTION_READ_ONLY)) {
            out.add(new String[] {TRANSACTION_READ_ONLY, get(TRANSACTION_READ_ONLY)});
        }
        return out;
    }

    /**
     * Sets a parameter.
     *
     * @throws PgProtocolException for a value numacube cannot honour (22023, 0A000) or a read-only parameter (55P02)
     */
    void set(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        String v = value;
        switch (key) {
            case "server_version",
                    "server_version_num",
                    "server_encoding",
                    "integer_datetimes",
                    "is_superuser",
                    "max_identifier_length",
                    "in_hot_standby",
                    "lc_ctype",
                    "lc_collate" ->
                throw new PgProtocolException("55P02", "parameter \"" + name + "\" cannot be changed");
            case "client_encoding" -> v = utf8Only(value);
            case "datestyle" -> v = isoOnly(value);
            case "timezone" -> v = TimeZoneSetting.canonical(value);
            case "standard_conforming_strings" -> onOnly(name, value);
            case "statement_timeout" -> v = milliseconds(duration(value));
            case "extra_float_digits" -> floatDigits(value);
            case TRANSACTION_READ_ONLY, "default_transaction_read_only" -> v = bool(name, value);
            default -> {}
        }
        changing();
        names.putIfAbsent(key, key);
        localBefore.remove(key);
        values.put(key, v);
    }

    /** A value is about to change: the transaction's first change marks what its rollback goes back to. */
    private void changing() {
        if (transactionStart == null) {
            transactionStart = mark();
        }
    }

    /**
     * The values and the pending SET LOCAL restores at a block's start or at a savepoint, for {@link #restore}.
     * Immutable copies.
     */
    record Mark(Map<String, String> values, Map<String, Optional<String>> localBefore) {}

    /**
     * An explicit transaction block begins: its SETs are undone if it rolls back, its SET LOCALs when it ends. A BEGIN
     * inside an implicit transaction (a simple query's {@code SET ...; BEGIN; ...}) makes it the block, as in
     * PostgreSQL: the changes before it are the block's too.
     */
    void blockBegins() {
        changing();
    }

    /** The values now, for a savepoint. */
    Mark mark() {
        return new Mark(new LinkedHashMap<>(values), new HashMap<>(localBefore));
    }

    /** Back to {@code m} ({@code ROLLBACK TO} a savepoint). */
    void restore(Mark m) {
        values.clear();
        values.putAll(m.values());
        localBefore.clear();
        localBefore.putAll(m.localBefore());
    }

    /**
     * The transaction ends, explicit or implicit: committed, its SET LOCALs go back to what they replaced and its SETs
     * stay; rolled back (a ROLLBACK, or an error in an implicit transaction), every value is what it was at its start,
     * as PostgreSQL's settings are transactional. Nothing happens when it changed none.
     */
    void transactionEnds(boolean committed) {
        if (transactionStart == null) {
            return;
        }
        if (committed) {
            localBefore.forEach((k, v) -> {
                if (v.isPresent()) {
                    values.put(k, v.get());
                } else {
                    values.remove(k);
                }
            });
            localBefore.clear();
        } else {
            restore(transactionStart);
        }
        localBefore.clear();
        transactionStart = null;
    }

    /** {@code SET LOCAL}: as {@link #set}, until the transaction ends. */
    void setLocal(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        Optional<String> before = before(key);
        set(name, value);
        localBefore.put(key, before);
    }

    /** {@code SET LOCAL name TO DEFAULT}: as {@link #reset}, until the transaction ends. */
    void resetLocal(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        Optional<String> before = before(key);
        reset(name);
        localBefore.put(key, before);
    }

    private Optional<String> before(String key) {
        return localBefore.containsKey(key) ? localBefore.get(key) : Optional.ofNullable(values.get(key));
    }

    /** Back to the default, or forgotten when there is none. */
    void reset(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        changing();
        localBefore.remove(key);
        if (defaults.containsKey(key)) {
            values.put(key, defaults.get(key));
        } else {
            values.remove(key);
        }
    }

    void resetAll() {
        changing();
        localBefore.clear();
        values.clear();
        values.putAll(defaults);
    }

    /** The connection's query deadline; {@link Duration#ZERO} for none. */
    Duration statementTimeout() {
        return duration(values.get("statement_timeout"));
    }

    /**
     * UTF8, or SQL_ASCII, with which PostgreSQL too sends the database's bytes unconverted. The name is compared as
     * PostgreSQL's {@code clean_encoding_name} does, on its letters and digits only in any case: asyncpg asks for
     * {@code 'utf-8'}, quotes included.
     */
    private static String utf8Only(String value) {
        String v = value.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "");
        if (v.equals("SQLASCII")) {
            return "SQL_ASCII";
        }
        if (!v.equals("UTF8") && !v.equals("UNICODE")) {
            throw new PgProtocolException(
                    "22023", "numacube speaks UTF8 only: client_encoding=" + value + " — use client_encoding UTF8");
        }
        return "UTF8";
    }

    private static String isoOnly(String value) {
        if (!value.strip().toUpperCase(Locale.ROOT).startsWith("ISO")) {
            throw new PgProtocolException(
                    ClientError.NOT_SUPPORTED, "numacube writes dates in ISO style only: DateStyle=" + value);
        }
        return value.toUpperCase(Locale.ROOT).contains("DMY") ? "ISO, DMY" : "ISO, MDY";
    }

    private static void onOnly(String name, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (!v.equals("on") && !v.equals("true") && !v.equals("1") && !v.equals("yes")) {
            throw new PgProtocolException(
                    ClientError.NOT_SUPPORTED, "numacube supports " + name + " = on only: value=" + value);
        }
    }

    /** A Boolean parameter's value as PostgreSQL reads it (a unique prefix of its words, any case): on or off. */
    static String bool(String name, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("1") || v.equals("on") || !v.isEmpty() && ("true".startsWith(v) || "yes".startsWith(v))) {
            return "on";
        }
        if (v.equals("0")
                || v.length() > 1 && "off".startsWith(v)
                || !v.isEmpty() && ("false".startsWith(v) || "no".startsWith(v))) {
            return "off";
        }
        throw new PgProtocolException("22023", "parameter \"" + name + "\" requires a Boolean value: value=" + value);
    }

    /**
     * Whether the transaction under way is read-only: {@code transaction_read_only} as its BEGIN, SET TRANSACTION or a
     * SET of it in the transaction left it, else {@code default_transaction_read_only}, which each transaction starts
     * from.
     */
    boolean transactionReadOnly() {
        return get(TRANSACTION_READ_ONLY).equals("on");
    }

    private static void floatDigits(String value) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= -15 && n <= 3) {
                return;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new PgProtocolException(
                "22023", "invalid value for parameter \"extra_float_digits\": " + value + " (allowed: -15 to 3)");
    }

    /** A duration as PostgreSQL's time parameters read it: a number of milliseconds, or with a unit. */
    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new PgProtocolException(
                    "22023", "invalid value for a time parameter: \"" + text + "\" — e.g. 5000, 5s or 1min");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
        return switch (unit) {
            case "s" -> Duration.ofSeconds(n);
            case "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofMillis(n);
        };
    }

    /** A duration as PostgreSQL shows it: {@code 0}, {@code 250ms}, {@code 30s}, {@code 5min}. */
    static String milliseconds(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "min";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
