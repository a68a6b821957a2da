package io.numacube.bench.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * One of the 22 TPC-H queries, its texts read from the resources beside this class: {@code q01.sql} ...
 * {@code q22.sql}, the specification's text with its validation substitution parameters (Q15's view as a WITH
 * clause), and, for some, {@code qNN-rewrite.sql}, a documented minimal rewrite that its leading comment explains
 * (date arithmetic on literals folded to the date, comma joins written as explicit JOIN ... ON): the bench runs the
 * rewrite only where numacube refuses the official text, so both refusals are on record. The same text runs in
 * numacube and in DuckDB. Immutable.
 *
 * @param number  1 to 22
 * @param sql     the official text, its comment included
 * @param rewrite the rewritten text, or null where there is none
 */
public record TpchQuery(int number, String sql, String rewrite) {

    /** Every query, Q1 to Q22. */
    public static List<TpchQuery> all() {
        return IntStream.rangeClosed(1, 22).mapToObj(TpchQuery::of).toList();
    }

    /** Query {@code number} (1 to 22). */
    public static TpchQuery of(int number) {
        if (number < 1 || number > 22) {
            throw new IllegalArgumentException("TPC-H has queries 1 to 22: query=" + number);
        }
        String official = text(String.format(Locale.ROOT, "q%02d.sql", number));
        if (official == null) {
            throw new IllegalStateException("a TPC-H query text is missing from the bench jar: query=" + number);
        }
        return new TpchQuery(number, official, text(String.format(Locale.ROOT, "q%02d-rewrite.sql", number)));
    }

    /** The official text, or the rewrite when {@code rewritten}. */
    public String text(boolean rewritten) {
        if (rewritten && rewrite == null) {
            throw new IllegalArgumentException("this TPC-H query has no rewrite: query=" + id());
        }
        return rewritten ? rewrite : sql;
    }

    private static String text(String resource) {
        try (InputStream in = TpchQuery.class.getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a TPC-H query text: resource=" + resource, e);
        }
    }

    /** The first line of why an engine refused or failed a query: the exception's message, or its class name. */
    public static String refusal(Throwable e) {
        String m = e.getMessage() == null || e.getMessage().isBlank()
                ? e.toString()
                : e.getMessage().strip();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl).strip();
    }

    /** The TPC-H tables a text names (comment lines left out), by name. */
    public java.util.Set<String> tables(boolean rewritten) {
        String code = text(rewritten)
                .lines()
                .filter(l -> !l.strip().startsWith("--"))
                .collect(java.util.stream.Collectors.joining("\n"))
                .toLowerCase(Locale.ROOT);
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (TpchSchema t : TpchSchema.TABLES) {
            if (java.util.regex.Pattern.compile("\\b" + t.name() + "\\b")
                    .matcher(code)
                    .find()) {
                names.add(t.name());
            }
        }
        return names;
    }

    /** "Q1" ... "Q22". */
    public String id() {
        return "Q" + number;
    }

    /** Whether the answer's row order is part of it (the query ends in ORDER BY, with or without LIMIT). */
    public boolean ordered() {
        return sql.toLowerCase(Locale.ROOT).contains("order by");
    }
}
