package io.numacube.server.pgwire.catalog;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * The columns of {@code pg_class}, {@code pg_namespace}, {@code pg_attribute} and {@code pg_type} a condition or an
 * order may read, each with its value in a {@link CatalogRow} (null: not known). Those four catalogs joined on their
 * keys ({@link #JOIN_KEYS}) give one row per relation, or per attribute of a relation. Immutable.
 */
enum CatalogColumn {
    CLASS_OID("pg_class", "oid", CatalogRow::oid),
    RELNAME("pg_class", "relname", CatalogRow::relname),
    RELKIND("pg_class", "relkind", CatalogRow::relkind),
    RELNAMESPACE("pg_class", "relnamespace", CatalogRow::nspoid),
    RELPERSISTENCE("pg_class", "relpersistence", r -> "p"),
    NAMESPACE_OID("pg_namespace", "oid", CatalogRow::nspoid),
    NSPNAME("pg_namespace", "nspname", CatalogRow::nspname),
    ATTRELID("pg_attribute", "attrelid", CatalogRow::oid),
    ATTNAME("pg_attribute", "attname", CatalogRow::attname),
    ATTNUM("pg_attribute", "attnum", CatalogRow::attnum),
    ATTISDROPPED("pg_attribute", "attisdropped", CatalogRow::attisdropped),
    ATTTYPID("pg_attribute", "atttypid", CatalogRow::atttypid),
    TYPE_OID("pg_type", "oid", CatalogRow::atttypid);

    /** The equalities that join the catalogs: {@code attrelid = pg_class.oid}, and so on. */
    static final CatalogColumn[][] JOIN_KEYS = {
        {ATTRELID, CLASS_OID}, {RELNAMESPACE, NAMESPACE_OID}, {ATTTYPID, TYPE_OID}
    };

    final String relation;
    final String column;
    private final Function<CatalogRow, Object> value;

    CatalogColumn(String relation, String column, Function<CatalogRow, Object> value) {
        this.relation = relation;
        this.column = column;
        this.value = value;
    }

    /** This column's value in {@code row}; null when not known. */
    Object value(CatalogRow row) {
        return value.apply(row);
    }

    static Optional<CatalogColumn> of(String relation, String column) {
        return Arrays.stream(values())
                .filter(c -> c.relation.equals(relation) && c.column.equalsIgnoreCase(column))
                .findFirst();
    }

    /** Whether {@code a = b} is one of the join keys, either way round. */
    static boolean joinKey(CatalogColumn a, CatalogColumn b) {
        for (CatalogColumn[] k : JOIN_KEYS) {
            if (k[0] == a && k[1] == b || k[0] == b && k[1] == a) {
                return true;
            }
        }
        return false;
    }
}
