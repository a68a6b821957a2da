package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;

/**
 * Answers as comparable text: one line per row, values joined by {@code |}, lines sorted; doubles to 9 significant
 * digits (a sum over shards adds in another order than over one server). The reference answers come from an
 * unsharded {@code numacube serve} over the same data, asked over its JSON API.
 */
final class Answers {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Answers() {}

    static List<String> of(List<Row> rows) {
        List<String> lines = new ArrayList<>();
        for (Row r : rows) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                values.add(text(r.get(i)));
            }
            lines.add(String.join("|", values));
        }
        lines.sort(null);
        return lines;
    }

    /** The JSON answer of {@code server} to {@code sql}, as comparable text. */
    static List<String> reference(ShardAddress server, String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/v1/query"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(sql))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("the reference server refused " + sql + ": " + r.body());
        }
        List<String> lines = new ArrayList<>();
        for (JsonNode row : JSON.readTree(r.body()).get("rows")) {
            List<String> values = new ArrayList<>();
            for (JsonNode v : row) {
                values.add(v.isNull() ? "NULL" : v.isFloatingPointNumber() ? text(v.doubleValue()) : v.asText());
            }
            lines.add(String.join("|", values));
        }
        lines.sort(null);
        return lines;
    }

    private static String text(Object v) {
        return switch (v) {
            case null -> "NULL";
            case Double d ->
                new BigDecimal(d).round(new MathContext(9)).stripTrailingZeros().toPlainString();
            case Float f -> text(f.doubleValue());
            default -> v.toString();
        };
    }
}
