package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.BinaryFormat;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.ParameterizedSql;
import io.numacube.server.query.RunningQuery;
import io.numacube.server.query.SqlLiteral;
import io.numacube.server.query.SqlStatements;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The extended query protocol of one connection: Parse, Bind, Describe, Execute, Close. A statement's parameters are
 * bound by substitution ({@link ParameterizedSql}; {@link ParameterLiteral} and {@link SqlLiteral}); a portal runs its statement at its
 * first Describe or Execute (a write at its Execute only) and keeps the outcome, so that Executes with a row limit page
 * through it (PortalSuspended between pages). Errors are thrown to the connection, which sends them and skips messages until Sync, as
 * PostgreSQL does. Not thread-safe: the connection's thread uses it.
 */
final class ExtendedQuery {

    private final Session session;
    private final StatementRunner runner;
    private final Replies replies;
    private final Consumer<RunningQuery> running;
    private SqlOrigin origin;
    private String ranSql;

    ExtendedQuery(Session session, StatementRunner runner, Replies replies, Consumer<RunningQuery> running) {
        this.session = session;
        this.runner = runner;
        this.replies = replies;
        this.running = running;
    }

    /** Handles one extended-protocol message: Parse 'P', Bind 'B', Describe 'D', Execute 'E' or Close 'C'. */
    void handle(char type, PgInput.Body body) throws IOException {
        origin = null;
        ranSql = null;
        switch (type) {
            case 'P' -> parse(body);
            case 'B' -> bind(body);
            case 'D' -> describe(body);
            case 'E' -> execute(body);
            case 'C' -> close(body);
            default -> throw new IllegalArgumentException("not an extended-protocol message: " + type);
        }
    }

    /** Where the statement of the last message came from, for its error's position; null when none. */
    SqlOrigin origin() {
        return origin;
    }

    /** The text the engine ran for the last message, or null. */
    String ranSql() {
        return ranSql;
    }

    private void parse(PgInput.Body body) throws IOException {
        String name = body.cstring();
        String query = body.cstring();
        int declared = body.int16();
        if (declared < 0) {
            throw PgProtocolException.invalidContent("invalid count in message: parameter types=" + declared);
        }
        int[] oids = new int[declared];
        for (int i = 0; i < oids.length; i++) {
            oids[i] = body.int32();
        }
        body.end("Parse");
        if (!name.isEmpty() && session.statements.containsKey(name)) {
            throw new PgProtocolException("42P05", "prepared statement \"" + name + "\" already exists");
        }
        List<SqlStatements.Statement> sts = SqlStatements.split(query);
        if (sts.size() > 1) {
            throw new PgProtocolException("42601", "cannot insert multiple commands into a prepared statement");
        }
        String sql = sts.isEmpty() ? "" : sts.getFirst().sql();
        ParameterizedSql p = ParameterizedSql.parse(sql);
        int[] all = java.util.Arrays.copyOf(oids, Math.max(oids.length, p.parameterCount()));
        session.statements.put(
                name,
                new Session.PreparedStatement(
                        name,
                        p,
                        all,
                        query,
                        sts.isEmpty() ? 0 : sts.getFirst().offset(),
                        new Session.DescribedResult()));
        replies.out().empty('1');
    }

    private void bind(PgInput.Body body) throws IOException {
        String portal = body.cstring();
        String name = body.cstring();
        short[] paramFormats = shorts(body);
        int count = body.int16();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int len = body.int32();
            values.add(len == -1 ? null : body.bytes(len));
        }
        short[] resultFormats = shorts(body);
        body.end("Bind");
        Session.PreparedStatement st = statement(name);
        int needed = st.parameterOids().length;
        if (count != needed) {
            throw new PgProtocolException(
                    ClientError.PROTOCOL_VIOLATION,
                    "bind message supplies " + count + " parameters, but prepared statement \"" + name + "\" requires "
                            + needed);
        }
        if (paramFormats.length > 1 && paramFormats.length != count) {
            throw new PgProtocolException(
                    ClientError.PROTOCOL_VIOLATION,
                    "bind message has " + paramFormats.length + " parameter formats but " + count + " parameters");
        }
        if (!portal.isEmpty() && session.portals.containsKey(portal)) {
            throw new PgProtocolException("42P03", "cursor \"" + portal + "\" already exists");
        }
        if (java.util.Arrays.stream(st.parameterOids()).anyMatch(oid -> oid == PgType.UNSPECIFIED)) {
            typedQuery(st).ifPresent(q -> st.resolve(runner.parameterTypes().resolveQuietly(q, st.parameterOids())));
        }
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            short format = paramFormats.length == 0 ? 0 : paramFormats[paramFormats.length == 1 ? 0 : i];
            literals.add(
                    values.get(i) == null
                            ? nullLiteral(st.sql(), i + 1)
                            : literal(st.parameterOids()[i], format, values.get(i)));
        }
        ParameterizedSql.Substituted bound = st.sql().substitute(literals);
        session.open(new Session.Portal(portal, bound, st.origin(bound), resultFormats, st.described()));
        replies.out().empty('2');
    }

    /**
     * The query whose parameters' types a statement's follow: the statement itself, or the query a DECLARE declares a
     * cursor for; empty for a session or another cursor statement.
     */
    private static java.util.Optional<ParameterizedSql> typedQuery(Session.PreparedStatement st) {
        String sql = st.sql().sql();
        if (SessionStatements.isSessionStatement(sql)) {
            return java.util.Optional.empty();
        }
        if (Cursors.isCursorStatement(sql)) {
            return Cursors.declaredQuery(sql).map(ParameterizedSql::parse);
        }
        return java.util.Optional.of(st.sql());
    }

    /** A NULL parameter: no limit after LIMIT ({@code ALL}) and none after OFFSET ({@code 0}), as in PostgreSQL. */
    private static String nullLiteral(ParameterizedSql sql, int number) {
        return switch (sql.wordBefore(number)) {
            case "LIMIT" -> "ALL";
            case "OFFSET" -> "0";
            default -> "NULL";
        };
    }

    private static String literal(int oid, short format, byte[] value) {
        if (value == null) {
            return "NULL";
        }
        if (format == 0) {
            return ParameterLiteral.ofText(oid, PgInput.utf8(value));
        }
        if (format != 1) {
            throw new PgProtocolException(ClientError.PROTOCOL_VIOLATION, "unsupported format code: " + format);
        }
        // an unknown parameter is text, as Describe tells the client
        PgType type = oid == PgType.UNSPECIFIED
                ? PgType.TEXT
                : PgType.byOid(oid)
                        .orElseThrow(() -> new PgProtocolException(
                                ClientError.NOT_SUPPORTED,
                                "a binary parameter needs a declared type: oid=" + oid
                                        + " — declare it in Parse or send text"));
        return SqlLiteral.of(BinaryFormat.decode(type, value));
    }

    private void describe(PgInput.Body body) throws IOException {
        byte kind = body.int8();
        String name = body.cstring();
        body.end("Describe");
        if (kind == 'S') {
            describeStatement(name);
        } else if (kind == 'P') {
            describePortal(portal(name));
        } else {
            throw PgProtocolException.invalidContent("invalid DESCRIBE message subtype " + kind);
        }
    }

    private void describeStatement(String name) throws IOException {
        Session.PreparedStatement st = statement(name);
        java.util.Optional<ParameterizedSql> typed =
                st.sql().sql().isEmpty() ? java.util.Optional.empty() : typedQuery(st);
        if (typed.isPresent()) {
            ParameterizedSql.Substituted marked = ParameterTypeInference.marked(typed.get(), st.parameterOids());
            origin = st.origin(marked);
            ranSql = marked.sql();
            st.resolve(runner.parameterTypes().resolve(typed.get(), st.parameterOids(), marked));
        }
        List<String> placeholders = new ArrayList<>();
        for (int oid : st.parameterOids()) {
            placeholders.add(ParameterLiteral.placeholder(oid));
        }
        ParameterizedSql.Substituted sql = st.sql().substitute(placeholders);
        origin = st.origin(sql);
        ranSql = sql.sql();
        List<PgColumn> columns = sql.sql().isEmpty() ? List.of() : runner.describe(sql.sql(), session, running);
        if (java.util.Arrays.stream(st.parameterOids()).anyMatch(oid -> oid == PgType.NUMERIC.oid())) {
            columns = withoutNumericModifiers(columns);
        }
        // a statement that fails here gets its error alone, as PostgreSQL's fails at Parse
        replies.out().parameterDescription(st.describedOids());
        st.described().describedAs(columns);
        if (columns.isEmpty()) {
            replies.out().empty('n');
        } else {
            replies.out().rowDescription(columns, new short[columns.size()]);
        }
    }

    /**
     * {@code columns} with each numeric one's modifier dropped: a numeric parameter's value sets the scale of what it
     * meets ({@code price * $1} is numeric(18,2) for 2 and numeric(18,3) for 1.5), so a statement described before
     * its values are known says {@code numeric}, as PostgreSQL describes such an expression, and its rows of any
     * scale match that ({@link Session.DescribedResult#admits}).
     */
    private static List<PgColumn> withoutNumericModifiers(List<PgColumn> columns) {
        return columns.stream()
                .map(c -> c.type() == PgType.NUMERIC ? new PgColumn(c.name(), c.type(), -1) : c)
                .toList();
    }

    private void describePortal(Session.Portal p) throws IOException {
        setOrigin(p);
        if (p.outcome == null && StatementRunner.isWrite(p.sql.sql())) {
            // a write returns no rows: it runs at Execute, where an Execute right before Sync applies it at once
            p.described = true;
            p.statementResult.describedAs(List.of());
            replies.out().empty('n');
            return;
        }
        boolean cursor = p.outcome == null && Cursors.isCursorStatement(p.sql.sql());
        if (cursor
                || p.outcome == null && (p.sql.sql().isEmpty() || SessionStatements.isSessionStatement(p.sql.sql()))) {
            // a cursor statement runs at Execute; a FETCH is described by its cursor's columns, as in PostgreSQL
            List<PgColumn> columns = cursor || SessionStatements.isShow(p.sql.sql())
                    ? runner.describe(p.sql.sql(), session, running)
                    : List.of();
            // the client now knows this portal's columns, whatever its statement was described as before
            p.described = cursor;
            if (columns.isEmpty()) {
                replies.out().empty('n');
            } else {
                replies.out().rowDescription(columns, p.formats(columns.size()));
            }
            return;
        }
        Outcome o = outcome(p);
        p.described = true;
        p.statementResult.describedAs(o.rows() == null ? List.of() : o.rows().columns());
        if (o.rows() == null) {
            replies.out().empty('n');
        } else {
            replies.out()
                    .rowDescription(
                            o.rows().columns(), p.formats(o.rows().columns().size()));
        }
    }

    private void execute(PgInput.Body body) throws IOException {
        String name = body.cstring();
        int maxRows = body.int32();
        body.end("Execute");
        Session.Portal p = portal(name);
        setOrigin(p);
        if (p.sql.sql().isEmpty()) {
            replies.out().empty('I');
            return;
        }
        if (p.commandSent) {
            throw new PgProtocolException("55000", "portal \"" + name + "\" cannot be run: its statement ran already");
        }
        Outcome o = outcome(p);
        p.commandSent = o.rows() == null;
        requireDescribedTypes(p, o);
        short[] formats = o.rows() == null ? null : p.formats(o.rows().columns().size());
        replies.outcome(o, p, Math.max(0, maxRows), formats, false);
    }

    /**
     * A statement's result types follow from its bound text, so a parameter can change them (a numeric {@code 2}
     * makes {@code k * $1} a bigint, {@code 1.5} a numeric(p,1), {@code 2.25} a numeric(p,2)). Rows of other types than those last described for the
     * statement, to a client that did not describe this portal, are refused as PostgreSQL refuses a plan whose result
     * type changed (0A000, routine {@code RevalidateCachedQuery}, on which pgjdbc prepares the statement again and
     * retries), rather than sent to be decoded as the old types.
     */
    private static void requireDescribedTypes(Session.Portal p, Outcome o) {
        List<String> told = p.statementResult.types();
        if (p.described || told == null || o.rows() == null) {
            return;
        }
        List<String> now = Session.DescribedResult.typesOf(o.rows().columns());
        if (!p.statementResult.admits(now)) {
            throw PgProtocolException.resultTypeChanged("cached plan must not change result type: described=" + told
                    + " now=" + now + " (column type OIDs and modifiers; a parameter's value changed a result type:"
                    + " cast the parameter, e.g. CAST($1 AS DECIMAL(18,4)), to keep one type)");
        }
    }

    private void close(PgInput.Body body) throws IOException {
        byte kind = body.int8();
        String name = body.cstring();
        body.end("Close");
        if (kind == 'S') {
            session.statements.remove(name);
        } else if (kind == 'P') {
            session.portals.remove(name);
        } else {
            throw PgProtocolException.invalidContent("invalid CLOSE message subtype " + kind);
        }
        replies.out().empty('3');
    }

    /** A simple query destroys the unnamed statement and portal, as in PostgreSQL. */
    void forgetUnnamed() {
        session.statements.remove("");
        session.portals.remove("");
    }

    private Outcome outcome(Session.Portal p) {
        if (p.outcome == null) {
            p.outcome = runner.run(p.sql.sql(), session, running);
        }
        return p.outcome;
    }

    private Session.PreparedStatement statement(String name) {
        Session.PreparedStatement st = session.statements.get(name);
        if (st == null) {
            throw new PgProtocolException("26000", "prepared statement \"" + name + "\" does not exist");
        }
        return st;
    }

    private Session.Portal portal(String name) {
        Session.Portal p = session.portals.get(name);
        if (p == null) {
            throw new PgProtocolException("34000", "portal \"" + name + "\" does not exist");
        }
        return p;
    }

    private void setOrigin(Session.Portal p) {
        origin = p.origin;
        ranSql = p.sql.sql();
    }

    private static short[] shorts(PgInput.Body body) {
        int n = body.int16();
        if (n < 0) {
            throw PgProtocolException.invalidContent("invalid count in message: " + n);
        }
        short[] out = new short[n];
        for (int i = 0; i < n; i++) {
            out[i] = body.int16();
            if (out[i] != 0 && out[i] != 1) {
                throw new PgProtocolException(ClientError.PROTOCOL_VIOLATION, "unsupported format code: " + out[i]);
            }
        }
        return out;
    }
}
