package io.numacube.server.pgwire.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A condition of a catalog query (a WHERE clause, an ON condition) read as a whole: its AND, OR and NOT split at
 * parenthesis depth 0, and each term one this class knows how to apply to a {@link CatalogRow}: a column ({@link
 * Resolver}) compared with a literal ({@code =}, {@code <>}, {@code <}, ...), matched by {@code LIKE}, {@code ILIKE}
 * or a regular expression ({@code ~}, {@code !~}, psql's {@code OPERATOR(pg_catalog.~)}), found in an {@code IN} list
 * or {@code = ANY (ARRAY[...])}, compared with another column, a boolean column, {@code pg_table_is_visible} of a
 * relation's OID, {@code true} or {@code false}. Any other term (a function, a cast to a regclass, a subquery, a
 * parameter, a column not modelled) makes the whole condition unreadable: {@link #of} is then empty, and the query is
 * refused rather than answered as if that term were not there. Immutable.
 */
final class CatalogCondition {

    /** Finds the catalog column a (maybe qualified) name refers to. */
    interface Resolver {
        /** The column {@code qualifier.name} ({@code qualifier} null for none), or empty when it is not modelled. */
        Optional<CatalogColumn> resolve(String qualifier, String name);
    }

    /** A condition's value for a row. */
    interface Filter {
        Truth test(CatalogRow row);
    }

    private static final String REF = "(?:((?:pg_catalog\\.)?[A-Za-z_]\\w*)\\.)?([A-Za-z_]\\w*)";
    private static final String CAST = "(?:\\s*::\\s*(?:pg_catalog\\.)?(?:varchar|text|name|char|bpchar|\"char\""
            + "|character varying|int2|int4|int8|smallint|integer|bigint|oid))*";
    private static final String BODY = "E?'(?:[^']++|'')*'|-?\\d+";
    private static final String LITERAL = "(?:" + BODY + ")" + CAST;
    private static final String LIT = "(" + BODY + ")" + CAST;
    private static final String LITS = "(\\s*" + LITERAL + "(?:\\s*,\\s*" + LITERAL + ")*\\s*)";
    private static final Pattern LIKE = Pattern.compile("(?is)" + REF + "\\s+(NOT\\s+)?(I?LIKE)\\s+" + LIT);
    private static final Pattern REGEX = Pattern.compile("(?is)" + REF
            + "\\s*(?:OPERATOR\\s*\\(\\s*pg_catalog\\.(!?~\\*?)\\s*\\)|(!?~\\*?))\\s*" + LIT
            + "(?:\\s+COLLATE\\s+pg_catalog\\.(?:default|\"default\"))?");
    private static final Pattern IN = Pattern.compile("(?is)" + REF + "\\s+(NOT\\s+)?IN\\s*\\(" + LITS + "\\)");
    private static final Pattern ANY = Pattern.compile(
            "(?is)" + REF + "\\s*=\\s*ANY\\s*\\(\\s*ARRAY\\s*\\[" + LITS + "]\\s*(?:::\\s*\\w+\\s*\\[\\s*])?\\s*\\)");
    private static final Pattern COMPARE = Pattern.compile("(?is)" + REF + "\\s*(=|<>|!=|<=|>=|<|>)\\s*" + LIT);
    private static final Pattern COLUMN_PAIR = Pattern.compile("(?is)" + REF + "\\s*(=|<>|!=)\\s*" + REF);
    private static final Pattern VISIBLE =
            Pattern.compile("(?is)(?:pg_catalog\\.)?pg_table_is_visible\\s*\\(\\s*" + REF + "\\s*\\)");
    private static final Pattern BARE = Pattern.compile("(?is)" + REF);
    private static final Pattern ONE_LITERAL = Pattern.compile("(?is)" + LIT);

    private final Filter filter;
    private final List<CatalogColumn[]> joinKeys;

    private CatalogCondition(Filter filter, List<CatalogColumn[]> joinKeys) {
        this.filter = filter;
        this.joinKeys = List.copyOf(joinKeys);
    }

    /**
     * The condition that all of {@code conjuncts} hold (blank ones ignored), or empty when a term of one is not
     * readable.
     */
    static Optional<CatalogCondition> of(List<String> conjuncts, Resolver resolver) {
        Filter all = r -> Truth.TRUE;
        List<CatalogColumn[]> keys = new ArrayList<>();
        for (String c : conjuncts) {
            if (c.isBlank()) {
                continue;
            }
            Matcher pair = COLUMN_PAIR.matcher(strip(c));
            if (pair.matches() && pair.group(3).equals("=")) {
                Optional<CatalogColumn> a = resolver.resolve(pair.group(1), pair.group(2));
                Optional<CatalogColumn> b = resolver.resolve(pair.group(4), pair.group(5));
                if (a.isPresent() && b.isPresent() && CatalogColumn.joinKey(a.get(), b.get())) {
                    keys.add(new CatalogColumn[] {a.get(), b.get()});
                }
            }
            Optional<Filter> f = parse(c, resolver);
            if (f.isEmpty()) {
                return Optional.empty();
            }
            Filter before = all;
            Filter next = f.get();
            all = r -> before.test(r).and(next.test(r));
        }
        return Optional.of(new CatalogCondition(all, keys));
    }

    Truth test(CatalogRow row) {
        return filter.test(row);
    }

    /** The join keys among the conjuncts, each as its two columns. */
    List<CatalogColumn[]> joinKeys() {
        return joinKeys;
    }

    /**
     * The conjuncts of {@code condition}: its parts joined by AND at parenthesis depth 0, a part that is a
     * parenthesized conjunction split in turn; the whole condition when an OR joins parts at depth 0 (AND binds
     * tighter: {@code a AND b OR c} is one term). None for a blank condition.
     */
    static List<String> conjuncts(String condition) {
        String c = condition.strip();
        if (c.isEmpty()) {
            return List.of();
        }
        if (split(c, "OR").size() > 1) {
            return List.of(c);
        }
        List<String> out = new ArrayList<>();
        for (String part : split(c, "AND")) {
            String p = strip(part);
            if (!p.equals(part.strip())
                    && split(p, "OR").size() == 1
                    && split(p, "AND").size() > 1) {
                out.addAll(conjuncts(p));
            } else if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    private static Optional<Filter> parse(String text, Resolver resolver) {
        String t = strip(text);
        for (String word : List.of("OR", "AND")) {
            List<String> parts = split(t, word);
            if (parts.size() > 1) {
                List<Filter> filters = new ArrayList<>();
                for (String p : parts) {
                    Optional<Filter> f = parse(p, resolver);
                    if (f.isEmpty()) {
                        return Optional.empty();
                    }
                    filters.add(f.get());
                }
                boolean or = word.equals("OR");
                return Optional.of(r -> {
                    Truth v = or ? Truth.FALSE : Truth.TRUE;
                    for (Filter f : filters) {
                        v = or ? v.or(f.test(r)) : v.and(f.test(r));
                    }
                    return v;
                });
            }
        }
        if (t.regionMatches(true, 0, "NOT ", 0, 4)) {
            return parse(t.substring(4), resolver).map(f -> r -> f.test(r).not());
        }
        return term(t, resolver);
    }

    private static Optional<Filter> term(String t, Resolver resolver) {
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            Truth v = Truth.of(t.equalsIgnoreCase("true"));
            return Optional.of(r -> v);
        }
        Matcher m;
        if ((m = VISIBLE.matcher(t)).matches()) {
            Optional<CatalogColumn> c = resolver.resolve(m.group(1), m.group(2));
            return c.filter(x -> x == CatalogColumn.CLASS_OID || x == CatalogColumn.ATTRELID)
                    .map(x -> r -> Truth.of(r.visible()));
        }
        if ((m = LIKE.matcher(t)).matches()) {
            Matcher g = m;
            boolean insensitive = g.group(4).length() == 5;
            return text(g.group(5))
                    .map(p -> insensitive ? NamePattern.ilike(p) : NamePattern.like(p))
                    .flatMap(p -> textTest(resolver, g.group(1), g.group(2), p, g.group(3) != null));
        }
        if ((m = REGEX.matcher(t)).matches()) {
            String op = m.group(3) != null ? m.group(3) : m.group(4);
            boolean insensitive = op.endsWith("*");
            boolean negated = op.startsWith("!");
            Matcher g = m;
            return text(m.group(5))
                    .flatMap(p -> NamePattern.regex(p, insensitive))
                    .flatMap(p -> textTest(resolver, g.group(1), g.group(2), p, negated));
        }
        if ((m = IN.matcher(t)).matches()) {
            return inList(resolver, m.group(1), m.group(2), m.group(4), m.group(3) != null);
        }
        if ((m = ANY.matcher(t)).matches()) {
            return inList(resolver, m.group(1), m.group(2), m.group(3), false);
        }
        if ((m = COMPARE.matcher(t)).matches()) {
            return compare(resolver, m.group(1), m.group(2), m.group(3), m.group(4));
        }
        if ((m = COLUMN_PAIR.matcher(t)).matches()) {
            Optional<CatalogColumn> a = resolver.resolve(m.group(1), m.group(2));
            Optional<CatalogColumn> b = resolver.resolve(m.group(4), m.group(5));
            if (a.isEmpty() || b.isEmpty()) {
                return Optional.empty();
            }
            boolean equal = m.group(3).equals("=");
            return Optional.of(r -> {
                Object x = a.get().value(r);
                Object y = b.get().value(r);
                return x == null || y == null ? Truth.UNKNOWN : Truth.of(x.equals(y) == equal);
            });
        }
        if ((m = BARE.matcher(t)).matches()) {
            return resolver.resolve(m.group(1), m.group(2))
                    .filter(c -> c == CatalogColumn.ATTISDROPPED)
                    .map(c -> r -> c.value(r) == null ? Truth.UNKNOWN : Truth.of((Boolean) c.value(r)));
        }
        return Optional.empty();
    }

    private static Optional<Filter> textTest(
            Resolver resolver, String qualifier, String name, Predicate<String> p, boolean negated) {
        return resolver.resolve(qualifier, name)
                .filter(CatalogCondition::isText)
                .map(c -> r -> {
                    Object v = c.value(r);
                    return v == null ? Truth.UNKNOWN : Truth.of(p.test((String) v) != negated);
                });
    }

    private static Optional<Filter> inList(
            Resolver resolver, String qualifier, String name, String literals, boolean negated) {
        Optional<CatalogColumn> c = resolver.resolve(qualifier, name);
        if (c.isEmpty()) {
            return Optional.empty();
        }
        List<Object> values = new ArrayList<>();
        Matcher v = ONE_LITERAL.matcher(literals);
        while (v.find()) {
            Optional<Object> value = value(c.get(), v.group(1));
            if (value.isEmpty()) {
                return Optional.empty();
            }
            values.add(value.get());
        }
        return Optional.of(r -> {
            Object x = c.get().value(r);
            if (x == null) {
                return otherOid(c.get(), r, values) ? Truth.of(negated) : Truth.UNKNOWN;
            }
            return Truth.of(values.contains(x) != negated);
        });
    }

    private static Optional<Filter> compare(Resolver resolver, String qualifier, String name, String op, String lit) {
        Optional<CatalogColumn> c = resolver.resolve(qualifier, name);
        Optional<Object> value = c.flatMap(x -> value(x, lit));
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Object y = value.get();
        return Optional.of(r -> {
            Object x = c.get().value(r);
            if (x == null) {
                boolean other = otherOid(c.get(), r, List.of(y));
                if (!other) {
                    return Truth.UNKNOWN;
                }
                return op.equals("=") ? Truth.FALSE : op.equals("<>") || op.equals("!=") ? Truth.TRUE : Truth.UNKNOWN;
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            int cmp = ((Comparable) x).compareTo(y);
            return Truth.of(
                    switch (op) {
                        case "=" -> cmp == 0;
                        case "<>", "!=" -> cmp != 0;
                        case "<" -> cmp < 0;
                        case "<=" -> cmp <= 0;
                        case ">" -> cmp > 0;
                        default -> cmp >= 0;
                    });
        });
    }

    /** Whether {@code c} is a relation's OID, unknown in {@code r} but known to be none of {@code values}. */
    private static boolean otherOid(CatalogColumn c, CatalogRow r, List<Object> values) {
        boolean oid = c == CatalogColumn.CLASS_OID || c == CatalogColumn.ATTRELID;
        return oid && !values.isEmpty() && r.otherOids().containsAll(values);
    }

    /** A literal as a value of column {@code c}'s kind: text for a name, a number for an OID; empty if it is not one. */
    private static Optional<Object> value(CatalogColumn c, String literal) {
        if (isText(c)) {
            return text(literal).map(s -> s);
        }
        if (c == CatalogColumn.ATTISDROPPED) {
            return Optional.empty();
        }
        String digits = literal.startsWith("'") ? text(literal).orElse("") : literal;
        return digits.matches("-?\\d{1,18}") ? Optional.of(Long.parseLong(digits)) : Optional.empty();
    }

    private static boolean isText(CatalogColumn c) {
        return switch (c) {
            case RELNAME, RELKIND, RELPERSISTENCE, NSPNAME, ATTNAME -> true;
            default -> false;
        };
    }

    /**
     * The text of a string literal ({@code 'it''s'}, {@code E'a\\_b'} with only {@code \\} and {@code \'} escapes),
     * empty for a number or another escape.
     */
    private static Optional<String> text(String literal) {
        if (literal.startsWith("'")) {
            return Optional.of(literal.substring(1, literal.length() - 1).replace("''", "'"));
        }
        if (!literal.regionMatches(true, 0, "E'", 0, 2)) {
            return Optional.empty();
        }
        String body = literal.substring(2, literal.length() - 1).replace("''", "'");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                if (i + 1 >= body.length() || "\\'".indexOf(body.charAt(i + 1)) < 0) {
                    return Optional.empty();
                }
                c = body.charAt(++i);
            }
            out.append(c);
        }
        return Optional.of(out.toString());
    }

    /** {@code t} stripped of whitespace and of parentheses that enclose all of it. */
    static String strip(String t) {
        String s = t.strip();
        while (s.startsWith("(") && JoinList.closing(s, 0) == s.length() - 1) {
            s = s.substring(1, s.length() - 1).strip();
        }
        return s;
    }

    /** {@code t} split at the word at parenthesis depth 0 (outside strings and comments). */
    private static List<String> split(String t, String word) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int at;
        while ((at = SelectList.indexOfWord(t, word, start)) >= 0) {
            out.add(t.substring(start, at));
            start = at + word.length();
        }
        out.add(t.substring(start));
        return out;
    }
}
