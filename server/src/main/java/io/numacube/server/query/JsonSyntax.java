package io.numacube.server.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.regex.Pattern;

/**
 * What a client is told of JSON that does not parse: Jackson's reason with each location it names as {@code line L,
 * column C}, not as Jackson prints one ({@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION`
 * disabled); line: 1, column: 1]}, which names a Java setting), then where the parser stopped. Stateless.
 */
public final class JsonSyntax {

    private static final Pattern LOCATION = Pattern.compile("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]");

    private JsonSyntax() {}

    /**
     * The one JSON value of {@code text} (null for none), read by {@code json}.
     *
     * @throws JsonProcessingException for text that does not parse, or holds more after the value (Jackson's own
     *     check names its Java classes)
     */
    public static com.fasterxml.jackson.databind.JsonNode readOne(
            com.fasterxml.jackson.databind.ObjectMapper json, String text) throws JsonProcessingException {
        try (com.fasterxml.jackson.core.JsonParser p = json.createParser(text)) {
            com.fasterxml.jackson.databind.JsonNode root = json.readTree(p);
            if (root != null && p.nextToken() != null) {
                throw new com.fasterxml.jackson.core.JsonParseException(
                        p, "more after the JSON value: one value (an object) is the whole body");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code e}'s reason, the locations in it as {@code line L, column C}. */
    public static String reason(JsonProcessingException e) {
        String reason = e.getOriginalMessage() == null ? "malformed JSON" : e.getOriginalMessage();
        return LOCATION.matcher(reason).replaceAll("line $1, column $2");
    }

    /** {@code e}'s {@link #reason} and where the parser stopped, for a client. */
    public static String problem(JsonProcessingException e) {
        String reason = reason(e);
        if (e.getLocation() == null || e.getLocation().getLineNr() < 1) {
            return reason;
        }
        return reason + " (at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr() + ")";
    }
}
