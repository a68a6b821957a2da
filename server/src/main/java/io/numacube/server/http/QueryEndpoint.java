package io.numacube.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.numacube.engine.result.QueryResult;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.server.auth.Identity;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.ParameterizedSql;
import io.numacube.server.query.QueryService;
import io.numacube.server.query.SqlPositions;
import io.numacube.server.query.SqlStatements;
import io.numacube.server.query.StatementRefusals;
import io.numacube.server.write.InsertStatement;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;

/**
 * {@code POST /v1/query}: one SQL statement, as {@code {"sql": "...", "params": [...], "timeout_ms": N, "query_id":
 * "..."}} ({@code application/json}; {@code params} optional, the values of {@code $1 .. $n} ({@link JsonParameters},
 * bound as {@link ParameterizedSql#bind} says), for queries, INSERT, UPDATE and DELETE alike; {@code timeout_ms} optional, 0
 * for none; {@code query_id} optional, the id under which {@code
 * DELETE /v1/queries/ID} cancels it, also taken from an {@code X-Query-Id} header) or as the whole body ({@code
 * text/plain}, or no Content-Type), answered
 * by {@link ResultJson}, or by {@link ResultColumnar} when the request's {@code Accept} names its media type. INSERT ... VALUES and DELETE are applied through the {@link WriteService} and answered with
 * {@code {"command", "table", "rows", "version"}}, or 403 (42501) for a reader; other writes are refused ({@link StatementRefusals}). An error is an {@link HttpError}
 * whose position is given in the SQL as sent. Thread-safe
 * (stateless but for its settings).
 */
final class QueryEndpoint {

    /**
     * Exact numbers as written ({@code 1.50} keeps its scale, as PostgreSQL's numeric does) and a key given twice
     * refused: with the last one silently winning, {@code {"sql": A, "sql": B}} ran B where a proxy may have checked A.
     */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .configure(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    private final QueryService service;
    private final WriteService writes;
    private final int maxBodyBytes;
    private final int maxSqlChars;

    QueryEndpoint(QueryService service, WriteService writes, int maxBodyBytes, int maxSqlChars) {
        this.service = service;
        this.writes = writes;
        this.maxBodyBytes = maxBodyBytes;
        this.maxSqlChars = maxSqlChars;
    }

    /** A request's statement, its parameters' literals (null when it sent none) and its deadline (null: the default). */
    private record Request(String sql, List<String> params, Duration timeout, String queryId) {

        Request withQueryId(String id) {
            return id == null ? this : new Request(sql, params, timeout, id);
        }
    }

    /** The statement as the engine runs it: its text with the parameters in place, and the substitution (or null). */
    private record Bound(String sql, ParameterizedSql.Substituted substitution) {}

    Reply handle(HttpExchange ex, Identity who) throws IOException {
        Request req = request(ex);
        SqlStatements.Statement st = statement(req.sql());
        Bound bound = bind(req, st);
        String word = io.numacube.server.query.SqlLexer.normalize(bound.sql()).split("[\\s(]", 2)[0];
        if (word.equalsIgnoreCase("INSERT") || word.equalsIgnoreCase("DELETE") || word.equalsIgnoreCase("UPDATE")) {
            return write(word.toUpperCase(java.util.Locale.ROOT), req, st, bound, who);
        }
        StatementRefusals.refusal(bound.sql()).ifPresent(e -> {
            throw new HttpError(400, e, 0);
        });
        String accept = ex.getRequestHeaders().getFirst("Accept");
        boolean columnar = ResultColumnar.accepted(accept);
        int batchRows = columnar ? ResultColumnar.batchRows(accept) : 0;
        QueryResult r;
        String id;
        try {
            var running = service.start(bound.sql(), req.timeout(), req.queryId());
            id = running.id();
            r = running.await();
        } catch (RuntimeException e) {
            throw located(ClientError.of(e), req.sql(), st, bound);
        }
        if (columnar) {
            var shard = service.cube().shard();
            return Reply.okBytes(
                    ResultColumnar.MEDIA_TYPE,
                    out -> ResultColumnar.write(
                            r, id, shard.map(Object::toString).orElse(null), batchRows, out));
        }
        return Reply.ok(g -> ResultJson.write(r, id, g));
    }

    private static SqlStatements.Statement statement(String sql) {
        List<SqlStatements.Statement> statements = SqlStatements.split(sql);
        if (statements.size() != 1) {
            throw new HttpError(
                    400,
                    statements.isEmpty() ? "42601" : ClientError.NOT_SUPPORTED,
                    statements.isEmpty()
                            ? "no statement in the request: the SQL is empty"
                            : "one statement per request: statements=" + statements.size() + " — send them one by one");
        }
        return statements.getFirst();
    }

    /** The statement with its parameters in place; one without markers or params runs as it was sent. */
    private static Bound bind(Request req, SqlStatements.Statement st) {
        try {
            ParameterizedSql p = ParameterizedSql.parse(st.sql());
            if (p.parameterCount() == 0 && (req.params() == null || req.params().isEmpty())) {
                return new Bound(st.sql(), null);
            }
            ParameterizedSql.Substituted s = p.bind(req.params() == null ? List.of() : req.params());
            return new Bound(s.sql(), s);
        } catch (RuntimeException e) {
            throw located(ClientError.of(e), req.sql(), st, new Bound(st.sql(), null));
        }
    }

    /**
     * An INSERT, UPDATE or DELETE: {@code {"command", "table", "rows", "version"}} once it is applied (and durable);
     * rows counts the rows inserted, changed or deleted.
     */
    private Reply write(String command, Request req, SqlStatements.Statement st, Bound bound, Identity who) {
        WriteService.Appended done;
        try {
            WriteService.Batch batch;
            if (command.equals("INSERT")) {
                InsertStatement insert = InsertStatement.parse(bound.sql());
                who.checkMayWrite(insert.table());
                batch = writes.batch(insert);
            } else {
                batch = command.equals("UPDATE") ? WriteService.update(bound.sql()) : WriteService.delete(bound.sql());
                who.checkMayWrite(batch.table());
            }
            done = writes.append(batch);
        } catch (RuntimeException e) {
            throw located(ClientError.of(e), req.sql(), st, bound);
        }
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeStringField("command", command);
            g.writeStringField("table", done.table());
            g.writeNumberField("rows", done.rows());
            g.writeNumberField("version", done.version());
            g.writeEndObject();
        });
    }

    private Request request(HttpExchange ex) throws IOException {
        String type = RequestBody.mediaType(ex);
        byte[] body = RequestBody.read(ex, maxBodyBytes);
        Request req = switch (type) {
            case "application/json" -> json(RequestBody.utf8(body));
            case "text/plain", "application/sql", "" -> new Request(RequestBody.utf8(body), null, null, null);
            default ->
                throw new HttpError(
                        415,
                        ClientError.NOT_SUPPORTED,
                        "unsupported Content-Type: type=" + type + " — send application/json ({\"sql\": ...}) "
                                + "or text/plain (the SQL); with curl: -H 'Content-Type: text/plain'");
        };
        req = req.withQueryId(ex.getRequestHeaders().getFirst("X-Query-Id"));
        String fault = io.numacube.server.query.StorableText.fault(req.sql());
        if (fault != null) {
            throw new HttpError(
                    400,
                    io.numacube.server.query.StorableText.BAD_ENCODING,
                    io.numacube.server.query.StorableText.message(fault, "the SQL"));
        }
        if (req.sql().length() > maxSqlChars) {
            throw new HttpError(
                    400,
                    ClientError.LIMIT_EXCEEDED,
                    "statement too long: chars=" + req.sql().length() + " max-chars=" + maxSqlChars);
        }
        return req;
    }

    private static Request json(String text) {
        JsonNode root;
        try {
            root = io.numacube.server.query.JsonSyntax.readOne(JSON, text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new HttpError(
                    400,
                    ClientError.PROTOCOL_VIOLATION,
                    "the body is not JSON: " + io.numacube.server.query.JsonSyntax.problem(e));
        }
        if (root == null || !root.isObject()) {
            throw new HttpError(400, ClientError.PROTOCOL_VIOLATION, "the body must be a JSON object: {\"sql\": ...}");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("sql") && !f.equals("params") && !f.equals("timeout_ms") && !f.equals("query_id")) {
                throw new HttpError(
                        400,
                        ClientError.PROTOCOL_VIOLATION,
                        "unknown field: field=" + f + " — fields: sql, params, timeout_ms, query_id");
            }
        }
        JsonNode sql = root.get("sql");
        if (sql == null || !sql.isTextual()) {
            throw new HttpError(400, ClientError.PROTOCOL_VIOLATION, "the body needs \"sql\", a string");
        }
        JsonNode id = root.get("query_id");
        if (id != null && !id.isTextual() && !id.isNull()) {
            throw new HttpError(400, ClientError.PROTOCOL_VIOLATION, "query_id must be a string: query_id=" + id);
        }
        String queryId = id == null || id.isNull() ? null : id.asText();
        JsonNode paramsNode = root.get("params");
        List<String> params = paramsNode == null || paramsNode.isNull() ? null : JsonParameters.literals(paramsNode);
        JsonNode timeout = root.get("timeout_ms");
        if (timeout == null || timeout.isNull()) {
            return new Request(sql.asText(), params, null, queryId);
        }
        if (!timeout.canConvertToLong() || !timeout.isIntegralNumber() || timeout.asLong() < 0) {
            throw new HttpError(
                    400, "22023", "timeout_ms is a whole number of milliseconds, 0 for none: timeout_ms=" + timeout);
        }
        return new Request(sql.asText(), params, Duration.ofMillis(timeout.asLong()), queryId);
    }

    /**
     * The error with its position moved from the statement as the engine ran it ({@code bound}) into the SQL as sent: a
     * position inside a parameter's literal points at its marker.
     */
    private static HttpError located(ClientError e, String sent, SqlStatements.Statement st, Bound bound) {
        int status = HttpError.statusOf(e.sqlState());
        if (e.position() == null) {
            return new HttpError(status, e, 0);
        }
        int ran = SqlPositions.index(
                bound.sql(), e.position().line(), e.position().column());
        int index = st.offset()
                + (bound.substitution() == null ? ran : bound.substitution().originalIndex(ran));
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < index; i++) {
            if (sent.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        ErrorPosition at = ErrorPosition.sql(line, index - lineStart + 1);
        return new HttpError(
                status, new ClientError(e.sqlState(), e.message(), at), SqlPositions.characterPosition(sent, index));
    }
}
