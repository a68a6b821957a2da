package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.FieldEncoder;
import io.numacube.server.query.ClientError;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The backend's answers that several message handlers send: a statement's outcome (notice, row description, rows,
 * completion), ErrorResponse and NoticeResponse with PostgreSQL's fields ({@code S}, {@code V}, {@code C},
 * {@code M}, {@code P}), and ParameterStatus for every reported setting a statement changed. Not thread-safe: the
 * connection's thread uses it.
 */
final class Replies {

    private final PgOutput out;
    private final Session session;
    private Map<String, String> reportedSettings;

    Replies(PgOutput out, Session session) {
        this.out = out;
        this.session = session;
        this.reportedSettings = session.settings.reported();
    }

    PgOutput out() {
        return out;
    }

    /**
     * Sends up to {@code maxRows} (0: all) more rows of an outcome and its completion; PortalSuspended instead of the
     * completion when {@code maxRows} rows were sent, as PostgreSQL, which completes only an Execute that found fewer.
     *
     * @param formats one format code per column, or null for all text (a simple query)
     * @return whether rows are left (the caller sends PortalSuspended instead of a completion)
     */
    boolean outcome(Outcome o, Session.Portal cursor, int maxRows, short[] formats, boolean describe)
            throws IOException {
        if (o.warning() != null && (cursor == null || cursor.rowsSent == 0)) {
            notice(o.warning());
        }
        settingsChanged();
        if (o.rows() == null) {
            out.commandComplete(o.verb());
            return false;
        }
        short[] f = formats != null ? formats : new short[o.rows().columns().size()];
        if (describe) {
            out.rowDescription(o.rows().columns(), f);
        }
        int from = cursor == null ? 0 : cursor.rowsSent;
        int total = o.rows().rowCount();
        int to = maxRows > 0 ? (int) Math.min(total, (long) from + maxRows) : total;
        FieldEncoder[] fields = new FieldEncoder[f.length];
        for (int c = 0; c < f.length; c++) {
            fields[c] = FieldEncoder.of(o.rows(), c, f[c]);
        }
        for (int r = from; r < to; r++) {
            out.dataRow(r, fields);
        }
        if (cursor != null) {
            cursor.rowsSent = to;
        }
        if (maxRows > 0 && to - from == maxRows) {
            // PostgreSQL suspends a portal that filled the limit even when no row is left; the next Execute completes
            out.empty('s');
            return true;
        }
        out.commandComplete(o.tag(to - from));
        return false;
    }

    /** ParameterStatus for each reported setting whose value changed since the last call. */
    void settingsChanged() throws IOException {
        Map<String, String> now = session.settings.reported();
        for (Map.Entry<String, String> e : now.entrySet()) {
            if (!e.getValue().equals(reportedSettings.get(e.getKey()))) {
                out.parameterStatus(e.getKey(), e.getValue());
            }
        }
        reportedSettings = now;
    }

    /**
     * ErrorResponse for {@code failure}; its position, when it has one in SQL, given in the client's text.
     *
     * @param origin where the failing statement came from, or null
     * @param ranSql the text the engine ran, or null
     */
    void error(Throwable failure, SqlOrigin origin, String ranSql) throws IOException {
        ClientError e = failure instanceof PgProtocolException p ? p.toClientError() : ClientError.of(failure);
        Map<Character, String> fields = fields("ERROR", e);
        if (e.position() != null && origin != null && ranSql != null) {
            fields.put('P', String.valueOf(origin.position(e.position(), ranSql)));
        }
        if (failure instanceof PgProtocolException p && p.routine() != null) {
            fields.put('R', p.routine());
        }
        out.fields('E', fields);
    }

    /** ErrorResponse with severity FATAL: the connection closes after it. */
    static void fatal(PgOutput out, ClientError e) throws IOException {
        out.fields('E', fields("FATAL", e));
        out.flush();
    }

    void notice(ClientError warning) throws IOException {
        out.fields('N', fields("WARNING", warning));
    }

    static Map<Character, String> fields(String severity, ClientError e) {
        Map<Character, String> f = new LinkedHashMap<>();
        f.put('S', severity);
        f.put('V', severity);
        f.put('C', e.sqlState());
        f.put('M', e.message());
        return f;
    }
}
