package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Catalogs whose rows are PostgreSQL's own, not the tables', answered as PostgreSQL 15 has them for the two lookups
 * SQLAlchemy 2.1 makes as it reflects a table: the index access method by name ({@code pg_am}: heap, btree, hash, gist,
 * gin, brin, spgist) and the operator classes that are not their type's default ({@code pg15-non-default-opclasses.txt}).
 * Each recognised by its whole text; any other query of these catalogs is not answered here. Stateless.
 */
final class BuiltinCatalogs {

    private static final Pattern ACCESS_METHOD = Pattern.compile("(?i)SELECT pg_catalog\\.pg_am\\.oid,"
            + " pg_catalog\\.pg_am\\.amname FROM pg_catalog\\.pg_am WHERE pg_catalog\\.pg_am\\.amname ="
            + " '(\\w+)'(?:::VARCHAR)?\\s*;?");
    private static final Pattern OPERATOR_CLASSES = Pattern.compile("(?i)SELECT pg_catalog\\.pg_opclass\\.oid,"
            + " pg_catalog\\.pg_opclass\\.opcname FROM pg_catalog\\.pg_opclass WHERE NOT"
            + " pg_catalog\\.pg_opclass\\.opcdefault\\s*;?");

    private static final List<Object[]> ACCESS_METHODS = List.of(
            new Object[] {2L, "heap"},
            new Object[] {403L, "btree"},
            new Object[] {405L, "hash"},
            new Object[] {783L, "gist"},
            new Object[] {2742L, "gin"},
            new Object[] {3580L, "brin"},
            new Object[] {4000L, "spgist"});
    private static final List<Object[]> NON_DEFAULT_OPCLASSES = load();

    private BuiltinCatalogs() {}

    /**
     * The answer to {@code sql} (normalized) if it is one of these lookups; empty otherwise, and for a lookup of
     * numacube's own access method, which no PostgreSQL has (a table's {@code relam} names it).
     */
    static Optional<RowSet> answer(String sql) {
        Matcher am = ACCESS_METHOD.matcher(sql.strip());
        if (am.matches() && !am.group(1).equals("numacube")) {
            List<Object[]> rows = ACCESS_METHODS.stream()
                    .filter(r -> r[1].equals(am.group(1)))
                    .toList();
            return Optional.of(rows(List.of(PgColumn.of("oid", PgType.OID), PgColumn.of("amname", PgType.NAME)), rows));
        }
        if (OPERATOR_CLASSES.matcher(sql.strip()).matches()) {
            return Optional.of(rows(
                    List.of(PgColumn.of("oid", PgType.OID), PgColumn.of("opcname", PgType.NAME)),
                    NON_DEFAULT_OPCLASSES));
        }
        return Optional.empty();
    }

    private static RowSet rows(List<PgColumn> columns, List<Object[]> rows) {
        return new FixedRows(columns, rows);
    }

    private static List<Object[]> load() {
        try (InputStream in = BuiltinCatalogs.class.getResourceAsStream("pg15-non-default-opclasses.txt")) {
            List<Object[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.strip().split(" ");
                    out.add(new Object[] {Long.parseLong(f[0]), f[1]});
                }
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
