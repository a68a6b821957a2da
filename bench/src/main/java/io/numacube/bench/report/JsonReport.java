package io.numacube.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

/**
 * Writes a {@link BenchReport} as indented JSON: every record component becomes a field of the same name, in
 * declaration order; absent sections are {@code null}; non-finite numbers are {@code null}. Records, collections,
 * maps, numbers, booleans and strings only (enough for the report; no JSON library needed at run time).
 * Stateless and thread-safe.
 */
public final class JsonReport {

    private JsonReport() {}

    public static String toJson(BenchReport report) {
        StringBuilder out = new StringBuilder();
        write(report, out, 0);
        return out.append('\n').toString();
    }

    /** Writes the report to {@code file}, creating its parent directories. */
    public static void write(BenchReport report, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, toJson(report));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bench JSON: file=" + file + " — " + e.getMessage(), e);
        }
    }

    private static void write(Object v, StringBuilder out, int depth) {
        switch (v) {
            case null -> out.append("null");
            case Double d -> out.append(Double.isFinite(d) ? d.toString() : "null");
            case Float f -> out.append(Float.isFinite(f) ? f.toString() : "null");
            case Number n -> out.append(n);
            case Boolean b -> out.append(b);
            case CharSequence s -> string(s.toString(), out);
            case Enum<?> e -> string(e.name(), out);
            case Record r -> record(r, out, depth);
            case Collection<?> c -> {
                out.append('[');
                int i = 0;
                for (Object item : c) {
                    out.append(i++ == 0 ? "\n" : ",\n");
                    indent(out, depth + 1);
                    write(item, out, depth + 1);
                }
                if (i > 0) {
                    out.append('\n');
                    indent(out, depth);
                }
                out.append(']');
            }
            case Map<?, ?> m -> {
                out.append('{');
                int i = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    out.append(i++ == 0 ? "\n" : ",\n");
                    indent(out, depth + 1);
                    string(String.valueOf(e.getKey()), out);
                    out.append(": ");
                    write(e.getValue(), out, depth + 1);
                }
                if (i > 0) {
                    out.append('\n');
                    indent(out, depth);
                }
                out.append('}');
            }
            default -> string(v.toString(), out);
        }
    }

    private static void record(Record r, StringBuilder out, int depth) {
        out.append('{');
        RecordComponent[] components = r.getClass().getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            out.append(i == 0 ? "\n" : ",\n");
            indent(out, depth + 1);
            string(components[i].getName(), out);
            out.append(": ");
            try {
                components[i].getAccessor().setAccessible(true);
                write(components[i].getAccessor().invoke(r), out, depth + 1);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(
                        "cannot read a report field: record=" + r.getClass().getSimpleName() + " field="
                                + components[i].getName(),
                        e);
            }
        }
        if (components.length > 0) {
            out.append('\n');
            indent(out, depth);
        }
        out.append('}');
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void indent(StringBuilder out, int depth) {
        out.append("  ".repeat(depth));
    }
}
