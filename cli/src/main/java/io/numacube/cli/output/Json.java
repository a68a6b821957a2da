package io.numacube.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A small JSON document model for the CLI's {@code --json} outputs, written by Jackson: objects keep insertion order,
 * strings are escaped by Jackson (RFC 8259), doubles print exactly ({@link Double#toString}, whole values below 1e15
 * as {@code 3.0}), and NaN and the infinities, which JSON numbers cannot hold, are {@code null}: in a report they
 * mean "not measured" (a share of pages nobody could count), and the multi-node stage reads them so. Query results,
 * where NaN is a value, turn it into the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} before
 * they get here ({@code ResultPrinter}). Values are {@code null}, Boolean, Number, String, Enum (its name),
 * {@link Obj}, Map, {@link Collection} or {@code int[]} of values (a BigDecimal prints with every digit of its scale, without
 * exponent); anything else prints as its {@code toString()}.
 * Not thread-safe; build on one thread, then print.
 */
public final class Json {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectWriter WRITER = JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build()
            .writer(new Layout());

    private Json() {}

    /** A JSON object under construction: {@code put} returns this for chaining. */
    public static final class Obj {
        private final Map<String, Object> fields = new LinkedHashMap<>();

        public Obj put(String key, Object value) {
            fields.put(key, value);
            return this;
        }

        public Map<String, Object> fields() {
            return fields;
        }
    }

    public static Obj obj() {
        return new Obj();
    }

    public static List<Object> arr() {
        return new ArrayList<>();
    }

    /** Pretty-printed with two-space indentation and a trailing newline; arrays of numbers stay on one line. */
    public static String print(Object value) {
        try {
            return WRITER.writeValueAsString(node(value)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode node(Object v) {
        return switch (v) {
            case null -> NODES.nullNode();
            case Boolean b -> NODES.booleanNode(b);
            case Double d -> number(d);
            case Float f -> number(f.doubleValue());
            case java.math.BigDecimal d -> NODES.numberNode(d);
            case Number n -> NODES.numberNode(n.longValue());
            case CharSequence s -> NODES.textNode(s.toString());
            case Obj o -> object(o.fields);
            case Map<?, ?> m -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                m.forEach((k, val) -> copy.put(String.valueOf(k), val));
                yield object(copy);
            }
            case Collection<?> c -> array(c);
            case int[] a -> array(Arrays.stream(a).boxed().toList());
            case Enum<?> e -> NODES.textNode(e.name());
            default -> NODES.textNode(v.toString());
        };
    }

    /** The number as its exact decimal text (Jackson would print 1e7 as {@code 1.0E7}; the CLI always printed it whole). */
    private static JsonNode number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return NODES.nullNode();
        }
        String text = d == Math.rint(d) && Math.abs(d) < 1e15 ? (long) d + ".0" : Double.toString(d);
        return NODES.rawValueNode(new RawValue(text));
    }

    private static ObjectNode object(Map<String, Object> fields) {
        ObjectNode o = NODES.objectNode();
        fields.forEach((k, val) -> o.set(k, node(val)));
        return o;
    }

    /** Arrays of numbers, booleans and nulls (and empty ones) on one line, as {@code [1, 2]}; others one item a line. */
    private static JsonNode array(Collection<?> items) {
        boolean flat = items.stream().allMatch(x -> x == null || x instanceof Number || x instanceof Boolean);
        if (flat) {
            String text = items.stream().map(x -> node(x).toString()).collect(Collectors.joining(", ", "[", "]"));
            return NODES.rawValueNode(new RawValue(text));
        }
        ArrayNode a = NODES.arrayNode();
        items.forEach(x -> a.add(node(x)));
        return a;
    }

    /** Two-space indents, {@code "key": value}, items one a line, and {@code {}} for an empty object. */
    private static final class Layout extends DefaultPrettyPrinter {
        private static final long serialVersionUID = 1L;

        Layout() {
            super(DEFAULT_SEPARATORS.withObjectFieldValueSpacing(Separators.Spacing.AFTER));
            DefaultIndenter lines = DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n");
            indentObjectsWith(lines);
            indentArraysWith(lines);
        }

        @Override
        public Layout createInstance() {
            return new Layout();
        }

        @Override
        public void writeEndObject(JsonGenerator g, int nrOfEntries) throws IOException {
            if (nrOfEntries == 0) {
                _nesting--;
                g.writeRaw('}');
                return;
            }
            super.writeEndObject(g, nrOfEntries);
        }
    }
}
