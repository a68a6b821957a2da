package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements about the session rather than the data, run as PostgreSQL runs them: {@code BEGIN} /
 * {@code START TRANSACTION}, {@code COMMIT} / {@code END}, {@code ROLLBACK} / {@code ABORT} (the transaction status
 * and its warnings; there are no writes to commit yet), {@code SET name = value}, {@code SET name TO value},
 * {@code SET TIME ZONE}, {@code SET NAMES}, {@code SET [SESSION CHARACTERISTICS AS] TRANSACTION ...},
 * {@code RESET}, {@code SHOW name | ALL}, {@code DISCARD} and {@code DEALLOCATE}. Stateless; acts on the
 * {@link Session} given.
 */
final class SessionStatements {

    private static final Pattern BEGIN =
            Pattern.compile("(?i)(BEGIN|START TRANSACTION)(?: (?:WORK|TRANSACTION))?( [A-Za-z ,]*)?");
    private static final Pattern READ_ONLY = Pattern.compile("(?i)\\bREAD ?(ONLY|WRITE)\\b");
    private static final Pattern COMMIT =
            Pattern.compile("(?i)(COMMIT|END|ROLLBACK|ABORT)(?: (?:WORK|TRANSACTION))?( AND (?:NO )?CHAIN)?");
    private static final Pattern SET = Pattern.compile("(?is)SET(?: (SESSION|LOCAL))? (.+)");
    private static final Pattern ASSIGN = Pattern.compile("(?is)([A-Za-z_][\\w.]*) ?(?:=|TO ) ?(.+)");
    /** {@code SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE}: PostgreSQL's interval of hours east. */
    private static final Pattern INTERVAL_ZONE =
            Pattern.compile("(?i)INTERVAL ?'((?:[^']++|'')*)'(?: ?HOUR(?: TO (?:MINUTE|SECOND))?)?");

    private static final Pattern RESET = Pattern.compile("(?i)RESET (ALL|[A-Za-z_][\\w.]*)");
    private static final Pattern SHOW = Pattern.compile("(?i)SHOW (ALL|TIME ZONE|TRANSACTION ISOLATION LEVEL|[\\w.]+)");
    private static final Pattern DISCARD = Pattern.compile("(?i)DISCARD (ALL|PLANS|SEQUENCES|TEMP|TEMPORARY)");
    private static final Pattern DEALLOCATE = Pattern.compile("(?i)DEALLOCATE(?: PREPARE)? (ALL|\\S+)");
    private static final String NAME = "(\"(?:[^\"]++|\"\")+\"|[A-Za-z_][\\w$]*)";
    private static final Pattern SAVEPOINT = Pattern.compile("(?i)SAVEPOINT " + NAME);
    private static final Pattern RELEASE = Pattern.compile("(?i)RELEASE(?: SAVEPOINT)? " + NAME);
    private static final Pattern ROLLBACK_TO =
            Pattern.compile("(?i)(?:ROLLBACK|ABORT)(?: (?:WORK|TRANSACTION))? TO(?: SAVEPOINT)? " + NAME);

    private SessionStatements() {}

    /**
     * Runs {@code sql} if it is a session statement.
     *
     * @return the outcome, or empty when it is not one
     * @throws PgProtocolException for a value that cannot be set, an unknown parameter, a DISCARD in a block
     */
    static Optional<Outcome> run(String sql, Session session) {
        String s = SqlLexer.normalize(sql);
        Matcher m = BEGIN.matcher(s);
        if (m.matches()) {
            return Optional.of(begin(session, m.group(1), m.group(2)));
        }
        m = COMMIT.matcher(s);
        if (m.matches()) {
            return Optional.of(end(session, m.group(1).toUpperCase(Locale.ROOT), m.group(2)));
        }
        if ((m = SET.matcher(s)).matches()) {
            return Optional.of(set(m.group(2), "LOCAL".equalsIgnoreCase(m.group(1)), session));
        }
        if ((m = RESET.matcher(s)).matches()) {
            if (m.group(1).equalsIgnoreCase("ALL")) {
                session.settings.resetAll();
            } else {
                session.settings.reset(m.group(1));
            }
            return Optional.of(Outcome.command("RESET"));
        }
        if ((m = SHOW.matcher(s)).matches()) {
            return Optional.of(show(m.group(1), session));
        }
        if ((m = DISCARD.matcher(s)).matches()) {
            return Optional.of(discard(m.group(1).toUpperCase(Locale.ROOT), session));
        }
        if ((m = DEALLOCATE.matcher(s)).matches()) {
            return Optional.of(deallocate(m.group(1), session));
        }
        return savepoints(s, session);
    }

    /** SAVEPOINT, RELEASE and ROLLBACK TO, over the block's kept writes ({@link Session#savepoint}). */
    private static Optional<Outcome> savepoints(String s, Session session) {
        Matcher m;
        if ((m = SAVEPOINT.matcher(s)).matches()) {
            requireBlock(session, "SAVEPOINT");
            session.savepoint(name(m.group(1)));
            return Optional.of(Outcome.command("SAVEPOINT"));
        }
        if ((m = RELEASE.matcher(s)).matches()) {
            requireBlock(session, "RELEASE SAVEPOINT");
            if (!session.release(name(m.group(1)))) {
                throw noSavepoint(m.group(1));
            }
            return Optional.of(Outcome.command("RELEASE"));
        }
        if ((m = ROLLBACK_TO.matcher(s)).matches()) {
            requireBlock(session, "ROLLBACK TO SAVEPOINT");
            if (!session.rollbackTo(name(m.group(1)))) {
                throw noSavepoint(m.group(1));
            }
            return Optional.of(Outcome.command("ROLLBACK"));
        }
        return Optional.empty();
    }

    private static void requireBlock(Session session, String what) {
        if (session.status() == Session.IDLE) {
            throw new PgProtocolException("25P01", what + " can only be used in transaction blocks");
        }
    }

    private static PgProtocolException noSavepoint(String name) {
        return new PgProtocolException("3B001", "savepoint \"" + name(name) + "\" does not exist");
    }

    /** A savepoint's name as PostgreSQL folds it: a quoted one as written, another in lower case. */
    private static String name(String written) {
        return written.startsWith("\"")
                ? written.substring(1, written.length() - 1).replace("\"\"", "\"")
                : written.toLowerCase(Locale.ROOT);
    }

    /** Whether {@code sql} is a session statement, without running it. */
    static boolean isSessionStatement(String sql) {
        String s = SqlLexer.normalize(sql);
        return java.util.stream.Stream.of(
                        BEGIN, COMMIT, SET, RESET, SHOW, DISCARD, DEALLOCATE, SAVEPOINT, RELEASE, ROLLBACK_TO)
                .anyMatch(p -> p.matcher(s).matches());
    }

    /** Whether {@code sql} is a SHOW, the one session statement that returns rows. */
    static boolean isShow(String sql) {
        return SHOW.matcher(SqlLexer.normalize(sql)).matches();
    }

    /** Whether {@code sql} is COMMIT (or END), which applies the block's writes. */
    static boolean commits(String sql) {
        Matcher m = COMMIT.matcher(SqlLexer.normalize(sql));
        return m.matches()
                && (m.group(1).equalsIgnoreCase("COMMIT") || m.group(1).equalsIgnoreCase("END"));
    }

    /**
     * Whether {@code sql} ends a transaction block, or its failure (ROLLBACK TO a savepoint): in a failed block only
     * these may run.
     */
    static boolean endsTransaction(String sql) {
        String s = SqlLexer.normalize(sql);
        return COMMIT.matcher(s).matches() || ROLLBACK_TO.matcher(s).matches();
    }

    /** BEGIN or START TRANSACTION ({@code word}) with its {@code modes} (null for none): its tag is its word. */
    private static Outcome begin(Session session, String word, String modes) {
        String tag = word.toUpperCase(Locale.ROOT).startsWith("START") ? "START TRANSACTION" : "BEGIN";
        if (session.status() != Session.IDLE) {
            return Outcome.command(tag).withWarning("25001", "there is already a transaction in progress");
        }
        session.begin();
        readOnlyMode(modes).ifPresent(session::transactionReadOnly);
        return Outcome.command(tag);
    }

    /** {@code READ ONLY} (true) or {@code READ WRITE} (false) among a transaction's modes; empty for neither. */
    private static Optional<Boolean> readOnlyMode(String modes) {
        Matcher m = READ_ONLY.matcher(modes == null ? "" : modes);
        Optional<Boolean> mode = Optional.empty();
        while (m.find()) {
            mode = Optional.of(m.group(1).equalsIgnoreCase("ONLY"));
        }
        return mode;
    }

    /**
     * Refuses {@code COMMIT AND CHAIN} or {@code ROLLBACK AND CHAIN} outside an explicit block (25P01, as PostgreSQL),
     * before a COMMIT applies anything.
     */
    static void checkChain(String sql, Session session) {
        Matcher m = COMMIT.matcher(SqlLexer.normalize(sql));
        if (m.matches() && chains(m.group(2)) && session.status() == Session.IDLE) {
            String word = m.group(1).toUpperCase(Locale.ROOT);
            throw new PgProtocolException(
                    "25P01",
                    (word.equals("END") ? "COMMIT" : word.equals("ABORT") ? "ROLLBACK" : word)
                            + " AND CHAIN can only be used in transaction blocks");
        }
    }

    private static boolean chains(String chain) {
        return chain != null && !chain.toUpperCase(Locale.ROOT).contains("NO");
    }

    /**
     * COMMIT / END / ROLLBACK / ABORT; with AND CHAIN a new block begins at once, read-only if the one ended was, as in
     * PostgreSQL.
     */
    private static Outcome end(Session session, String word, String chain) {
        checkChain(word + (chain == null ? "" : chain), session);
        boolean commit = word.equals("COMMIT") || word.equals("END");
        boolean failed = session.status() == Session.FAILED_BLOCK;
        boolean idle = session.status() == Session.IDLE;
        boolean readOnly = session.settings.transactionReadOnly();
        session.endTransaction(commit && !failed);
        if (chains(chain)) {
            session.begin();
            session.transactionReadOnly(readOnly);
        }
        Outcome o = Outcome.command(commit && !failed ? "COMMIT" : "ROLLBACK");
        return idle ? o.withWarning("25P01", "there is no transaction in progress") : o;
    }

    private static Outcome set(String rest, boolean local, Session session) {
        String r = rest.strip();
        String upper = r.toUpperCase(Locale.ROOT);
        if (transactionModes(r, upper, session)) {
            return Outcome.command("SET");
        }
        String name;
        String value;
        if (upper.startsWith("TIME ZONE ")) {
            name = "TimeZone";
            value = r.substring("TIME ZONE ".length());
        } else if (upper.startsWith("NAMES ")) {
            name = "client_encoding";
            value = r.substring("NAMES ".length());
        } else if (upper.startsWith("SCHEMA ")) {
            name = "search_path";
            value = r.substring("SCHEMA ".length());
        } else {
            Matcher a = ASSIGN.matcher(r);
            if (!a.matches()) {
                throw new PgProtocolException("42601", "syntax error in SET: " + rest);
            }
            name = a.group(1);
            value = a.group(2);
        }
        boolean toDefault =
                value.strip().equalsIgnoreCase("DEFAULT") || value.strip().equalsIgnoreCase("LOCAL");
        Matcher interval = INTERVAL_ZONE.matcher(value.strip());
        String v = name.equals("TimeZone") && interval.matches()
                ? TimeZoneSetting.ofInterval(interval.group(1).replace("''", "'"))
                : values(value);
        if (name.equalsIgnoreCase(SessionSettings.TRANSACTION_READ_ONLY)) {
            session.transactionReadOnly(
                    toDefault
                            ? session.settings
                                    .get("default_transaction_read_only")
                                    .equals("on")
                            : SessionSettings.bool(name, v).equals("on"));
        } else if (local) {
            if (toDefault) {
                session.settings.resetLocal(name);
            } else {
                session.settings.setLocal(name, v);
            }
        } else if (toDefault) {
            session.settings.reset(name);
        } else {
            session.settings.set(name, v);
        }
        Outcome set = Outcome.command("SET");
        return local && !session.inTransactionBlock()
                ? set.withWarning("25P01", "SET LOCAL can only be used in transaction blocks")
                : set;
    }

    /**
     * {@code SET TRANSACTION modes} (the transaction under way) or {@code SET SESSION CHARACTERISTICS AS TRANSACTION
     * modes} (its default): their READ ONLY or READ WRITE applied; the isolation level is read and ignored.
     *
     * @return whether {@code r} ({@code upper} in capitals) was one of them
     */
    private static boolean transactionModes(String r, String upper, Session session) {
        if (upper.startsWith("TRANSACTION ")) {
            readOnlyMode(r).ifPresent(session::transactionReadOnly);
            return true;
        }
        if (upper.startsWith("CHARACTERISTICS AS TRANSACTION ")
                || upper.startsWith("SESSION CHARACTERISTICS AS TRANSACTION ")) {
            readOnlyMode(r).ifPresent(on -> session.settings.set("default_transaction_read_only", on ? "on" : "off"));
            return true;
        }
        return false;
    }

    /** A SET value list as PostgreSQL stores it: items unquoted and joined by {@code ", "}. */
    private static String values(String text) {
        List<String> items = new ArrayList<>();
        int i = 0;
        StringBuilder cur = new StringBuilder();
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'') {
                int end = SqlLexer.skipNonCode(text, i);
                cur.append(text.substring(i + 1, Math.max(i + 1, end - 1)).replace("''", "'"));
                i = end;
            } else if (c == ',') {
                items.add(cur.toString().strip());
                cur.setLength(0);
                i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        items.add(cur.toString().strip());
        return String.join(", ", items);
    }

    private static Outcome show(String what, Session session) {
        String name = switch (what.toUpperCase(Locale.ROOT)) {
            case "TIME ZONE" -> "TimeZone";
            case "TRANSACTION ISOLATION LEVEL" -> "transaction_isolation";
            default -> what;
        };
        if (name.equalsIgnoreCase("ALL")) {
            List<Object[]> rows = new ArrayList<>();
            for (String[] nv : session.settings.all()) {
                rows.add(new Object[] {nv[0], nv[1], ""});
            }
            return new Outcome(
                    new FixedRows(
                            List.of(
                                    PgColumn.of("name", PgType.TEXT),
                                    PgColumn.of("setting", PgType.TEXT),
                                    PgColumn.of("description", PgType.TEXT)),
                            rows),
                    "SHOW",
                    null);
        }
        String value = session.settings.get(name);
        String column = session.settings.canonicalName(name);
        return new Outcome(FixedRows.single(PgColumn.of(column, PgType.TEXT), value), "SHOW", null);
    }

    private static Outcome discard(String what, Session session) {
        if (session.status() != Session.IDLE) {
            throw new PgProtocolException("25001", "DISCARD " + what + " cannot run inside a transaction block");
        }
        if (what.equals("ALL")) {
            session.settings.resetAll();
            session.statements.clear();
            session.portals.clear();
        } else if (what.equals("PLANS")) {
            session.statements.clear();
        }
        return Outcome.command("DISCARD " + (what.equals("TEMPORARY") ? "TEMP" : what));
    }

    private static Outcome deallocate(String name, Session session) {
        if (name.equalsIgnoreCase("ALL")) {
            session.statements.clear();
            return Outcome.command("DEALLOCATE ALL");
        }
        String n = name.startsWith("\"") ? name.substring(1, name.length() - 1) : name.toLowerCase(Locale.ROOT);
        if (session.statements.remove(n) == null) {
            throw new PgProtocolException("26000", "prepared statement \"" + n + "\" does not exist");
        }
        return Outcome.command("DEALLOCATE");
    }
}
