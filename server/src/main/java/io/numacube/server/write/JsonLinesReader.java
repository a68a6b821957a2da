package io.numacube.server.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.TextField;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;

/**
 * Reads JSON lines into a staging of a table's columns: one object per non-blank line, each key a column (matched
 * without regard to case; an unknown key is an error), each value a string, number, boolean or null read as the column's
 * type exactly as a CSV field of that text would be ({@link TextField}); a column the object leaves out is NULL. Any
 * bad line is an error naming {@code source}, the line and the field, and nothing of the batch is kept (the caller
 * drops the staging). Not thread-safe: one per batch.
 */
final class JsonLinesReader {

    private static final JsonFactory JSON = new JsonFactory();

    private final TableSchema schema;
    private final String source;
    private final TextField field = new TextField();

    JsonLinesReader(TableSchema schema, String source) {
        this.schema = schema;
        this.source = source;
    }

    TableStaging read(byte[] body) {
        TableStaging staging = new TableStaging(schema);
        int line = 1;
        int start = 0;
        for (int i = 0; i <= body.length; i++) {
            if (i == body.length || body[i] == '\n') {
                if (!blank(body, start, i)) {
                    row(staging, body, start, i, line);
                }
                start = i + 1;
                line++;
            }
        }
        return staging;
    }

    private void row(TableStaging staging, byte[] body, int from, int to, int line) {
        boolean[] set = new boolean[schema.size()];
        try (JsonParser p = JSON.createParser(body, from, to - from)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw fault(line, null, "a line must hold one JSON object");
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String key = p.currentName();
                int c = schema.indexOf(key);
                if (c < 0) {
                    throw fault(line, key, "no such column — the columns are " + schema.declaration());
                }
                if (set[c]) {
                    throw fault(line, key, "the column is given twice");
                }
                set[c] = true;
                value(staging, p, p.nextToken(), c, line, key);
            }
            if (p.nextToken() != null) {
                throw fault(line, null, "a line must hold one JSON object and nothing after it");
            }
        } catch (JsonProcessingException e) {
            staging.discardRow();
            throw fault(line, null, "not JSON: " + io.numacube.server.query.JsonSyntax.reason(e));
        } catch (IOException e) {
            staging.discardRow();
            throw fault(line, null, e.getMessage());
        } catch (NumacubeException e) {
            staging.discardRow();
            throw e;
        }
        for (int c = 0; c < set.length; c++) {
            if (!set[c]) {
                staging.setNull(c);
            }
        }
        staging.endRow();
    }

    private void value(TableStaging staging, JsonParser p, JsonToken t, int c, int line, String key)
            throws IOException {
        switch (t) {
            case VALUE_NULL -> staging.setNull(c);
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> {
                String problem = field.set(staging, c, p.getText());
                if (problem != null) {
                    throw fault(TextField.sqlState(problem), line, key, problem + ": value=" + p.getText());
                }
            }
            default -> throw fault(line, key, "a value must be a string, number, boolean or null, not " + t);
        }
    }

    private NumacubeException fault(int line, String key, String what) {
        return fault("22P02", line, key, what);
    }

    private NumacubeException fault(String sqlState, int line, String key, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                sqlState,
                source + ": line " + line + (key == null ? "" : " field " + key) + ": " + what,
                null,
                null);
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }
}
