package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.auth.Identity;
import io.numacube.server.query.ClientError;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.WriteService;
import java.io.IOException;

/**
 * {@code POST /v1/tables/NAME/rows}: a batch of rows appended to table NAME as one atomic write ({@link
 * WriteService}), as CSV with a header row ({@code text/csv}) or JSON lines ({@code application/x-ndjson}, {@code
 * application/jsonl} or {@code application/json}, one object per line). Answers {@code {"table", "rows", "version"}}
 * once the rows are durable (where the server is) and visible to every later query; a bad row is a 400 naming its
 * line and field (text with a NUL or an unpaired surrogate too: 22021, {@link
 * io.numacube.server.query.StorableText}), and nothing of the batch is kept; a reader is refused with 403 (42501). Thread-safe (stateless but for its settings).
 */
final class RowsEndpoint {

    private final WriteService writes;
    private final int maxBodyBytes;

    RowsEndpoint(WriteService writes, int maxBodyBytes) {
        this.writes = writes;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** @throws HttpError 403 for a user who may not write, before the body is read */
    Reply handle(HttpExchange ex, String table, Identity who) throws IOException {
        try {
            who.checkMayWrite(table);
        } catch (RuntimeException e) {
            throw new HttpError(403, ClientError.of(e), 0);
        }
        BatchFormat format = format(RequestBody.mediaType(ex));
        byte[] body = RequestBody.read(ex, maxBodyBytes);
        String source = "POST /v1/tables/" + table + "/rows";
        WriteService.Appended done;
        try {
            if (format == BatchFormat.CSV) {
                io.numacube.server.query.StorableText.checkCsv(body, source);
            } else {
                io.numacube.server.query.StorableText.checkJsonLines(body, source);
            }
            done = writes.append(new WriteService.Batch(table, format, body, source));
        } catch (RuntimeException e) {
            ClientError error = ClientError.of(e);
            int status = error.sqlState().equals("42P01") ? 404 : HttpError.statusOf(error.sqlState());
            throw new HttpError(status, error, 0);
        }
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeStringField("table", done.table());
            g.writeNumberField("rows", done.rows());
            g.writeNumberField("version", done.version());
            g.writeEndObject();
        });
    }

    private static BatchFormat format(String type) {
        return switch (type) {
            case "text/csv" -> BatchFormat.CSV;
            case "application/x-ndjson", "application/jsonl", "application/json", "application/jsonlines" ->
                BatchFormat.JSON_LINES;
            default ->
                throw new HttpError(
                        415,
                        ClientError.NOT_SUPPORTED,
                        "unsupported Content-Type for rows: type=" + (type.isEmpty() ? "(none)" : type)
                                + " — send text/csv (a header row, then rows) or application/x-ndjson (one JSON object"
                                + " per line); with curl: -H 'Content-Type: text/csv' --data-binary @rows.csv");
        };
    }
}
