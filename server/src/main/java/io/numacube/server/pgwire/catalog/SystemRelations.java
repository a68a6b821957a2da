package io.numacube.server.pgwire.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rows PostgreSQL 15 has in {@code pg_class} (and {@code pg_attribute}) beside the cube's tables, which numacube
 * does not answer: its own relations ({@code pg15-system-relations.txt}, as a new database has them: schema,
 * name, kind and OID, each of unknown columns), the system columns every table has ({@code ctid} ... {@code tableoid},
 * numbered -1 to -6), each table's TOAST table and its index (in {@code pg_toast}, named {@code pg_toast_OID} and
 * {@code pg_toast_OID_index} after the table's OID, as PostgreSQL names them; their own OIDs not known) and a keyed table's
 * primary key index ({@code TABLE_pkey}). A catalog query whose condition is not false for every one of these rows
 * would answer some of them in PostgreSQL, so it is refused. Immutable.
 */
final class SystemRelations {

    private static final List<CatalogRow> RELATIONS = load();
    private static final long PG_CATALOG_OID = 11;
    private static final long PG_TOAST_OID = 99;

    private record SystemColumn(String name, long number, long typeOid) {}

    private static final List<SystemColumn> SYSTEM_COLUMNS = List.of(
            new SystemColumn("tableoid", -6, 26),
            new SystemColumn("cmax", -5, 29),
            new SystemColumn("xmax", -4, 28),
            new SystemColumn("cmin", -3, 29),
            new SystemColumn("xmin", -2, 28),
            new SystemColumn("ctid", -1, 27));

    private SystemRelations() {}

    /** The rows beside {@code model}'s own, each relation's attributes not known where {@code attributes}. */
    static List<CatalogRow> rows(CatalogModel model, boolean attributes) {
        List<CatalogRow> relations = new ArrayList<>(RELATIONS);
        Set<Long> oids =
                model.relations().stream().map(CatalogModel.Relation::oid).collect(Collectors.toSet());
        for (CatalogModel.Relation r : model.relations()) {
            relations.add(toast("pg_toast_" + r.oid(), "t", oids));
            relations.add(toast("pg_toast_" + r.oid() + "_index", "i", oids));
            if (!r.key().isEmpty()) {
                relations.add(new CatalogRow(
                        "public",
                        CatalogRow.PUBLIC_OID,
                        null,
                        r.name() + "_pkey",
                        "i",
                        true,
                        null,
                        null,
                        null,
                        null,
                        oids));
            }
        }
        if (!attributes) {
            return relations;
        }
        List<CatalogRow> out = new ArrayList<>();
        for (CatalogRow r : relations) {
            out.add(r.anyAttribute());
        }
        for (CatalogModel.Relation r : model.relations()) {
            CatalogRow table = CatalogRow.of(r, null);
            for (SystemColumn c : SYSTEM_COLUMNS) {
                out.add(table.systemColumn(c.name(), c.number(), c.typeOid()));
            }
        }
        return out;
    }

    /** Whether one of PostgreSQL's own relations is called {@code name} (a TOAST table's name included). */
    static boolean isName(String name) {
        return name.startsWith("pg_toast_")
                || RELATIONS.stream().anyMatch(r -> r.relname().equals(name));
    }

    /** Whether {@code schema} is one of PostgreSQL's own (pg_catalog, information_schema, pg_toast, pg_temp...). */
    static boolean isNamespace(String schema) {
        return schema.startsWith("pg_") || schema.equals("information_schema");
    }

    private static CatalogRow toast(String name, String kind, Set<Long> oids) {
        return new CatalogRow("pg_toast", PG_TOAST_OID, null, name, kind, false, null, null, null, null, oids);
    }

    private static List<CatalogRow> load() {
        try (InputStream in = SystemRelations.class.getResourceAsStream("pg15-system-relations.txt")) {
            List<CatalogRow> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.strip().split(" ");
                boolean catalog = f[0].equals("pg_catalog");
                Long nspoid = catalog ? (Long) PG_CATALOG_OID : f[0].equals("pg_toast") ? (Long) PG_TOAST_OID : null;
                out.add(new CatalogRow(
                        f[0], nspoid, Long.parseLong(f[3]), f[1], f[2], catalog, null, null, null, null, Set.of()));
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
