package io.numacube.cli.output;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON document model for the CLI's {@code --json} outputs: objects keep insertion order, numbers print
 * without exponent noise, strings are escaped per RFC 8259. Values are {@code null}, Boolean, Number, String,
 * {@link Obj}, or {@link Collection} of values. Not thread-safe; build on one thread, then print.
 */
public final class Json {

    private Json() {
    }

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

    /** Pretty-printed with two-space indentation and a trailing newline. */
    public static String print(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        switch (v) {
            case null -> sb.append("null");
            case Boolean b -> sb.append(b);
            case Double d -> number(sb, d);
            case Float f -> number(sb, f.doubleValue());
            case Number n -> sb.append(n.longValue());
            case CharSequence s -> string(sb, s.toString());
            case Obj o -> object(sb, o.fields, indent);
            case Map<?, ?> m -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                m.forEach((k, val) -> copy.put(String.valueOf(k), val));
                object(sb, copy, indent);
            }
            case Collection<?> c -> array(sb, c, indent);
            case int[] a -> array(sb, java.util.Arrays.stream(a).boxed().toList(), indent);
            case Enum<?> e -> string(sb, e.name());
            default -> string(sb, v.toString());
        }
    }

    private static void number(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            sb.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            sb.append((long) d).append(".0");
        } else {
            sb.append(d);
        }
    }

    private static void object(StringBuilder sb, Map<String, Object> fields, int indent) {
        if (fields.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        int i = 0;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            pad(sb, indent + 1);
            string(sb, e.getKey());
            sb.append(": ");
            write(sb, e.getValue(), indent + 1);
            sb.append(++i < fields.size() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append('}');
    }

    private static void array(StringBuilder sb, Collection<?> items, int indent) {
        boolean flat = items.stream().allMatch(x -> x == null || x instanceof Number || x instanceof Boolean);
        if (items.isEmpty() || flat) {
            sb.append('[');
            int i = 0;
            for (Object x : items) {
                if (i++ > 0) {
                    sb.append(", ");
                }
                write(sb, x, indent);
            }
            sb.append(']');
            return;
        }
        sb.append("[\n");
        int i = 0;
        for (Object x : items) {
            pad(sb, indent + 1);
            write(sb, x, indent + 1);
            sb.append(++i < items.size() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append(']');
    }

    private static void pad(StringBuilder sb, int indent) {
        sb.append("  ".repeat(indent));
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
