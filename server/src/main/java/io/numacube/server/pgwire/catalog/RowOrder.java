package io.numacube.server.pgwire.catalog;

import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ORDER BY of a catalog answer as PostgreSQL applies it: each key an output column (by ordinal, or by its name) or
 * a catalog column ({@link CatalogColumn}; a column of a catalog that only extends rows with NULLs is NULL for every
 * row, so it orders nothing), ascending or descending, NULLs last ascending and first descending unless {@code NULLS
 * FIRST|LAST} says otherwise. Names ({@code name}, {@code text}) compare by their characters' code points, as
 * PostgreSQL's {@code name} type (collation C) does. A key it cannot resolve, or of an array, makes the order
 * unreadable and the query refused. Immutable.
 */
final class RowOrder {

    /** A row being answered: the catalog row it comes from and its output values. */
    record Answered(CatalogRow source, Object[] values) {}

    /** How to resolve a key that is not an output column. */
    interface Keys {
        /**
         * The value of {@code qualifier.name} ({@code qualifier} null for none) in a row; empty when it names no column
         * known here.
         */
        Optional<Function<CatalogRow, Object>> column(String qualifier, String name);
    }

    private static final Pattern KEY = Pattern.compile("(?is)(.+?)(?:\\s+(ASC|DESC))?(?:\\s+NULLS\\s+(FIRST|LAST))?");
    private static final Pattern REF = Pattern.compile("(?is)(?:((?:pg_catalog\\.)?[A-Za-z_]\\w*)\\.)?([A-Za-z_]\\w*)");

    private final Comparator<Answered> order;

    private RowOrder(Comparator<Answered> order) {
        this.order = order;
    }

    /**
     * The order {@code list} (blank: none) gives rows of the output columns {@code names}, or empty when a key is not
     * one of those columns and {@code keys} does not know it.
     *
     * @param outputQualifier the name that qualifies the output columns (a wrapping level's alias), or null
     */
    static Optional<RowOrder> of(String list, List<String> names, String outputQualifier, Keys keys) {
        Comparator<Answered> order = (a, b) -> 0;
        if (list.isBlank()) {
            return Optional.of(new RowOrder(order));
        }
        for (String part : SqlLexer.splitTopLevel(list)) {
            Matcher m = KEY.matcher(part.strip());
            if (!m.matches()) {
                return Optional.empty();
            }
            Optional<Function<Answered, Object>> value = value(m.group(1).strip(), names, outputQualifier, keys);
            if (value.isEmpty()) {
                return Optional.empty();
            }
            boolean descending = "DESC".equalsIgnoreCase(m.group(2));
            boolean nullsFirst = m.group(3) == null ? descending : m.group(3).equalsIgnoreCase("FIRST");
            order = order.thenComparing(key(value.get(), descending, nullsFirst));
        }
        return Optional.of(new RowOrder(order));
    }

    private static Optional<Function<Answered, Object>> value(
            String expression, List<String> names, String outputQualifier, Keys keys) {
        if (expression.matches("\\d+")) {
            int ordinal = Integer.parseInt(expression);
            return ordinal >= 1 && ordinal <= names.size()
                    ? Optional.of(a -> a.values()[ordinal - 1])
                    : Optional.empty();
        }
        if (expression.startsWith("\"") && expression.endsWith("\"") && expression.length() > 1) {
            return output(expression.substring(1, expression.length() - 1).replace("\"\"", "\""), names);
        }
        Matcher ref = REF.matcher(expression);
        if (!ref.matches()) {
            return Optional.empty();
        }
        String qualifier = ref.group(1);
        String name = ref.group(2).toLowerCase(Locale.ROOT);
        if (qualifier == null || qualifier.equalsIgnoreCase(outputQualifier)) {
            Optional<Function<Answered, Object>> out = output(name, names);
            if (out.isPresent() || qualifier != null) {
                return out;
            }
        }
        return keys.column(qualifier, name).map(f -> a -> f.apply(a.source()));
    }

    /** The output column called {@code name}, if exactly one is. */
    private static Optional<Function<Answered, Object>> output(String name, List<String> names) {
        int at = names.indexOf(name);
        return at >= 0 && names.lastIndexOf(name) == at ? Optional.of(a -> a.values()[at]) : Optional.empty();
    }

    private static Comparator<Answered> key(Function<Answered, Object> value, boolean descending, boolean nullsFirst) {
        return (a, b) -> {
            Object x = value.apply(a);
            Object y = value.apply(b);
            if (x == null || y == null) {
                return x == y ? 0 : (x == null) == nullsFirst ? -1 : 1;
            }
            int c = compare(x, y);
            return descending ? -c : c;
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) {
            return Long.compare(a, b);
        }
        if (x instanceof Number a && y instanceof Number b) {
            return Double.compare(a.doubleValue(), b.doubleValue());
        }
        if (x instanceof Comparable c && x.getClass() == y.getClass()) {
            return c.compareTo(y);
        }
        throw new UnorderableException();
    }

    /** Thrown while sorting values that have no order here (arrays); the query is then refused. */
    static final class UnorderableException extends RuntimeException {
        UnorderableException() {
            super("catalog values without an order", null, false, false);
        }
    }

    /** {@code rows} sorted; empty when they hold values of a key that have no order here. */
    Optional<List<Answered>> sort(List<Answered> rows) {
        List<Answered> out = new ArrayList<>(rows);
        try {
            out.sort(order);
        } catch (UnorderableException e) {
            return Optional.empty();
        }
        return Optional.of(out);
    }
}
