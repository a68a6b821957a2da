package io.numacube.server.http;

import io.numacube.server.query.QueryService;
import io.numacube.server.query.RunningQuery;
import java.util.List;

/**
 * The queries under way, from either front end: {@code GET /v1/queries} lists them ({@code {"queries": [{"id", "sql",
 * "seconds", "state"}]}}, oldest first); {@code DELETE /v1/queries/ID} cancels one (its client gets SQLSTATE 57014, and
 * the engine stops its work within about a block of morsels), answering {@code {"id", "cancelled": true}}, or 404 when no
 * query of that id is under way. Thread-safe (stateless).
 */
final class QueriesEndpoint {

    private final QueryService service;

    QueriesEndpoint(QueryService service) {
        this.service = service;
    }

    Reply list() {
        List<RunningQuery> queries = service.running();
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("queries");
            for (RunningQuery q : queries) {
                g.writeStartObject();
                g.writeStringField("id", q.id());
                g.writeStringField("sql", q.sql());
                g.writeNumberField("seconds", Math.round(q.seconds() * 1000) / 1000.0);
                g.writeStringField("state", q.state());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    Reply cancel(String id) {
        RunningQuery q = service.find(id)
                .orElseThrow(() -> new HttpError(404, "42704", "no query under way has this id: query_id=" + id));
        q.cancel();
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeBooleanField("cancelled", true);
            g.writeEndObject();
        });
    }
}
