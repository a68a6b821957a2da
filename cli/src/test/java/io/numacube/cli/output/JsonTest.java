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
        assertEquals(
                "quote \" backslash \\ newline \n tab \t bell \u0007 é",
                back.get("text").asText());
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
    void writesNanAndInfinitiesAsNullAndDoublesWithoutLoss() throws Exception {
        double[] values = {Double.MIN_VALUE, Double.MAX_VALUE, -0.1, 1e15, 1e7, 123456789.125, Math.PI, -3.0};
        List<Object> list = new java.util.ArrayList<>();
        for (double v : values) {
            list.add(v);
        }
        JsonNode back = MAPPER.readTree(Json.print(Json.obj()
                .put("nan", Double.NaN)
                .put("inf", Double.POSITIVE_INFINITY)
                .put("minus_inf", Double.NEGATIVE_INFINITY)
                .put("float_nan", Float.NaN)
                .put("values", list)));
        assertEquals(true, back.get("nan").isNull());
        assertEquals(true, back.get("inf").isNull());
        assertEquals(true, back.get("minus_inf").isNull());
        assertEquals(true, back.get("float_nan").isNull());
        for (int i = 0; i < values.length; i++) {
            assertEquals(values[i], back.get("values").get(i).doubleValue(), "values[" + i + "]");
        }
    }

    @Test
    void escapesControlCharactersAndKeepsUnicode() throws Exception {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            all.append(c);
        }
        String text = all + " \"\\ \u007f é \u2028 \uD83D\uDE00 中文";
        String printed = Json.print(Json.obj().put(text, text));
        // Only the layout's line feeds may appear raw: every control character inside a string is escaped.
        assertEquals(true, printed.chars().noneMatch(c -> c < 0x20 && c != '\n'), printed);
        assertEquals(3, printed.lines().count(), printed);
        JsonNode back = MAPPER.readTree(printed);
        assertEquals(text, back.get(text).textValue());
    }

    @Test
    void keepsTheLayoutOfTheHandWrittenWriter() {
        // The layout the CLI printed before Jackson wrote it: two-space indents, "key": value, flat number arrays.
        String expected = """
                {
                  "a": 1,
                  "d": 10000000.0,
                  "big": 1.0E15,
                  "ints": [1, 2, 3],
                  "empty": [],
                  "none": {},
                  "objs": [
                    {
                      "x": "y"
                    },
                    {}
                  ],
                  "e": "HALF_UP"
                }
                """;
        assertEquals(
                expected,
                Json.print(Json.obj()
                        .put("a", 1)
                        .put("d", 1e7)
                        .put("big", 1e15)
                        .put("ints", new int[] {1, 2, 3})
                        .put("empty", List.of())
                        .put("none", Json.obj())
                        .put("objs", List.of(Json.obj().put("x", "y"), Json.obj()))
                        .put("e", java.math.RoundingMode.HALF_UP)));
    }

    @Test
    void keepsInsertionOrderOfKeys() {
        String text = Json.print(Json.obj().put("z", 1).put("a", 2).put("m", 3));
        assertEquals(
                true, text.indexOf("\"z\"") < text.indexOf("\"a\"") && text.indexOf("\"a\"") < text.indexOf("\"m\""));
    }
}
