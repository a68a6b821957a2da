package io.numacube.server.pgwire.catalog;

/**
 * One row a query over {@code pg_class}, {@code pg_namespace}, {@code pg_attribute} and {@code pg_type} (joined on
 * their keys) ranges over: a relation, its namespace and, for attribute queries, one of its attributes with that
 * attribute's type. A null value is one not known (a column of one of PostgreSQL's own relations). Immutable.
 *
 * @param nspname     the relation's namespace
 * @param nspoid      that namespace's OID, null when not known
 * @param oid         the relation's OID, null when not known
 * @param relname     its name
 * @param relkind     its kind ({@code r}, {@code i}, {@code v}, ...)
 * @param visible     what {@code pg_table_is_visible} says of it
 * @param attname     the attribute's name, null when not known or not an attribute row
 * @param attnum      its number (negative for system columns), null when not known
 * @param atttypid    its type's OID, null when not known
 * @param attisdropped whether it is dropped, null when not known
 * @param otherOids   OIDs the relation's is known not to be, where its own is not known (OIDs are unique, so a
 *                    relation of PostgreSQL's has none of the cube tables'); empty otherwise
 */
record CatalogRow(
        String nspname,
        Long nspoid,
        Long oid,
        String relname,
        String relkind,
        boolean visible,
        String attname,
        Long attnum,
        Long atttypid,
        Boolean attisdropped,
        java.util.Set<Long> otherOids) {

    static final long PUBLIC_OID = 2200;

    /** A cube table's row, with {@code attribute} for attribute queries (null for relation queries). */
    static CatalogRow of(CatalogModel.Relation r, CatalogModel.Attribute a) {
        return new CatalogRow(
                "public",
                PUBLIC_OID,
                r.oid(),
                r.name(),
                "r",
                true,
                a == null ? null : a.name(),
                a == null ? null : (long) a.number(),
                a == null ? null : (long) a.type().oid(),
                a == null ? null : false,
                java.util.Set.of());
    }

    /** This relation's row with an attribute of which nothing is known. */
    CatalogRow anyAttribute() {
        return new CatalogRow(nspname, nspoid, oid, relname, relkind, visible, null, null, null, null, otherOids);
    }

    /** This relation's row with one of its system columns ({@code ctid} is -1, ... {@code tableoid} -6). */
    CatalogRow systemColumn(String name, long number, long typeOid) {
        return new CatalogRow(nspname, nspoid, oid, relname, relkind, visible, name, number, typeOid, false, otherOids);
    }
}
