package io.numacube.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void printsDocumentsThatAStandardParserReadsBackUnchanged() throws Exception {
        Json.Obj doc = Json.obj()
                .put("text", "quote \" backslash \\ newline \n tab \t bell \u0007 é")
                .put("long", 1L << 40)
                .put("double", 0.1 + 0.2)
                .put("whole_double", 3.0)
                .put("nan", Double.NaN)
                .put("flag", true)
                .put("none", null)
                .put("ints", List.of(1, 2, 3))
                .put("objects", List.of(Json.obj().put("a", 1), Json.obj()))
                .put("map", Map.of("7", 8))
                .put("empty", List.of());
        JsonNode back = MAPPER.readTree(Json.print(doc));
        assertEquals("quote \" backslash \\ newline \n tab \t bell \u0007 é", back.get("text").asText());
        assertEquals(1L << 40, back.get("long").asLong());
        assertEquals(0.1 + 0.2, back.get("double").asDouble());
        assertEquals(3.0, back.get("whole_double").asDouble());
        assertEquals(true, back.get("nan").isNull());
        assertEquals(true, back.get("flag").asBoolean());
        assertEquals(true, back.get("none").isNull());
        assertEquals(3, back.get("ints").size());
        assertEquals(1, back.get("objects").get(0).get("a").asInt());
        assertEquals(0, back.get("objects").get(1).size());
        assertEquals(8, back.get("map").get("7").asInt());
        assertEquals(0, back.get("empty").size());
    }

    @Test
    void keepsInsertionOrderOfKeys() {
        String text = Json.print(Json.obj().put("z", 1).put("a", 2).put("m", 3));
        assertEquals(true, text.indexOf("\"z\"") < text.indexOf("\"a\"") && text.indexOf("\"a\"") < text.indexOf("\"m\""));
    }
}
