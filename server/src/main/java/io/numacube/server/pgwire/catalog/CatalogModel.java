package io.numacube.server.pgwire.catalog;

import io.numacube.engine.Cube;
import io.numacube.engine.PartitionInfo;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.pgwire.types.PgType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cube's tables as PostgreSQL's catalog would show them: each an ordinary table ({@code relkind 'r'}) in schema
 * {@code public}, owned by {@code numacube}, with an OID from 16385 on in name order (stable while the tables do not
 * change: this phase of the server loads once), and its columns as attributes numbered from 1, typed as the wire types of their values ({@link PgType#of}; a DECIMAL(p,s) column as
 * {@code numeric(p,s)}). A table's key ({@code Cube.keyColumns}) is its primary key, named {@code TABLE_pkey} as
 * PostgreSQL names one. A snapshot taken per catalog query. Immutable.
 */
final class CatalogModel {

    static final int FIRST_TABLE_OID = 16_385;
    static final String OWNER = "numacube";

    /** A table; {@code key} the columns of its key ({@code --key}, as its schema spells them), empty for none. */
    record Relation(long oid, String name, List<Attribute> attributes, long rows, long bytes, List<String> key) {}

    /** A column: its number, name, type, type modifier and {@code format_type} text. */
    record Attribute(int number, String name, PgType type, int typmod, String formatType) {}

    private final List<Relation> relations;

    private CatalogModel(List<Relation> relations) {
        this.relations = List.copyOf(relations);
    }

    static CatalogModel of(Cube cube) {
        Map<String, Long> bytes = new HashMap<>();
        for (PartitionInfo p : cube.placement()) {
            bytes.merge(p.table().toLowerCase(java.util.Locale.ROOT), p.bytes(), Long::sum);
        }
        List<Relation> out = new ArrayList<>();
        List<String> names = cube.tables();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            TableSchema schema = cube.schema(name);
            List<Attribute> attributes = new ArrayList<>();
            for (int c = 0; c < schema.size(); c++) {
                attributes.add(attribute(c + 1, schema.column(c)));
            }
            out.add(new Relation(
                    FIRST_TABLE_OID + i,
                    name,
                    attributes,
                    cube.rowCount(name),
                    bytes.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), 0L),
                    cube.keyColumns(name).stream()
                            .map(k -> schema.column(schema.indexOf(k)).name())
                            .toList()));
        }
        return new CatalogModel(out);
    }

    private static Attribute attribute(int number, ColumnSpec c) {
        if (c.isDecimal()) {
            return new Attribute(
                    number,
                    c.name(),
                    PgType.NUMERIC,
                    PgType.numericTypmod(c.precision(), c.scale()),
                    "numeric(" + c.precision() + "," + c.scale() + ")");
        }
        PgType t = PgType.of(c.type());
        return new Attribute(number, c.name(), t, -1, t.sqlName());
    }

    /** Whether any table has a key: then {@code pg_constraint} and {@code pg_index} have its primary key. */
    boolean keyed() {
        return relations.stream().anyMatch(r -> !r.key().isEmpty());
    }

    List<Relation> relations() {
        return relations;
    }

    /** The relation with this OID, if any. */
    java.util.Optional<Relation> byOid(long oid) {
        return relations.stream().filter(r -> r.oid() == oid).findFirst();
    }
}
