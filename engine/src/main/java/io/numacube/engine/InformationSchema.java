package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableNames;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The SQL standard's {@code information_schema} views of the cube's tables, as PostgreSQL shows them, for the tools
 * that browse a database through them (Grafana's and DBeaver's table and column pickers): {@code tables} (a row per
 * table, {@code BASE TABLE}), {@code columns} (a row per column, with PostgreSQL's column names, {@code data_type} and
 * {@code udt_name} as the PostgreSQL protocol types the values: {@code text}, {@code bigint}, {@code double
 * precision}, {@code numeric}, {@code date}, {@code timestamp without time zone}, {@code boolean}) and
 * {@code schemata}. Each is a small table staged from the schemas of one snapshot, so a query over it is answered by
 * the engine with all its SQL, and names it {@code information_schema.NAME} ({@link TableNames}). Only the columns
 * clients read are there; PostgreSQL's others (interval, collation, domain, scope, ...) are not. Stateless.
 */
final class InformationSchema {

    private static final Pattern NAMED = Pattern.compile("(?i)\\binformation_schema\\s*\\.");

    private static final String COLUMNS = "table_catalog:string,table_schema:string,table_name:string,"
            + "column_name:string,ordinal_position:int,column_default:string,is_nullable:string,data_type:string,"
            + "character_maximum_length:int,character_octet_length:int,numeric_precision:int,"
            + "numeric_precision_radix:int,numeric_scale:int,datetime_precision:int,udt_catalog:string,"
            + "udt_schema:string,udt_name:string,is_identity:string,is_generated:string,is_updatable:string";

    private static final String TABLES = "table_catalog:string,table_schema:string,table_name:string,"
            + "table_type:string,self_referencing_column_name:string,reference_generation:string,"
            + "user_defined_type_catalog:string,user_defined_type_schema:string,user_defined_type_name:string,"
            + "is_insertable_into:string,is_typed:string,commit_action:string";

    private static final String SCHEMATA = "catalog_name:string,schema_name:string,schema_owner:string,"
            + "default_character_set_catalog:string,default_character_set_schema:string,"
            + "default_character_set_name:string,sql_path:string";

    private InformationSchema() {}

    /** Whether {@code sql} may read a view of information_schema (a cheap test of its text). */
    static boolean named(String sql) {
        return NAMED.matcher(sql).find();
    }

    /** The three views of {@code tables}, each named {@code information_schema.NAME}. */
    static List<TableStaging> views(List<TableSchema> tables) {
        List<TableSchema> sorted = new ArrayList<>(tables);
        sorted.sort(Comparator.comparing(TableSchema::name));
        return List.of(tables(sorted), columns(sorted), schemata());
    }

    private static TableStaging tables(List<TableSchema> tables) {
        TableStaging s = staging("tables", TABLES);
        for (TableSchema t : tables) {
            strings(s, 0, TableNames.CATALOG, TableNames.SCHEMA, t.name(), "BASE TABLE", null, null, null, null, null);
            strings(s, 9, "YES", "NO", null);
            s.endRow();
        }
        return s;
    }

    private static TableStaging columns(List<TableSchema> tables) {
        TableStaging s = staging("columns", COLUMNS);
        for (TableSchema t : tables) {
            for (int c = 0; c < t.size(); c++) {
                ColumnSpec col = t.column(c);
                SqlType type = SqlType.of(col);
                strings(s, 0, TableNames.CATALOG, TableNames.SCHEMA, t.name(), col.name());
                s.setLong(4, c + 1);
                strings(s, 5, null, "YES", type.dataType());
                integers(s, 8, null, type.octets(), type.precision(), type.radix(), type.scale(), type.datetime());
                strings(s, 14, TableNames.CATALOG, "pg_catalog", type.udtName(), "NO", "NEVER", "YES");
                s.endRow();
            }
        }
        return s;
    }

    private static TableStaging schemata() {
        TableStaging s = staging("schemata", SCHEMATA);
        for (String schema : List.of(TableNames.SCHEMA, TableNames.INFORMATION_SCHEMA, "pg_catalog")) {
            strings(s, 0, TableNames.CATALOG, schema, "numacube", null, null, null, null);
            s.endRow();
        }
        return s;
    }

    private static TableStaging staging(String view, String columns) {
        return new TableStaging(TableSchema.parse(TableNames.INFORMATION_SCHEMA + "." + view, columns));
    }

    /** Sets columns {@code from}, {@code from + 1}, ... of the row to {@code values} (null: NULL). */
    private static void strings(TableStaging s, int from, String... values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                s.setNull(from + i);
            } else {
                s.setString(from + i, values[i]);
            }
        }
    }

    private static void integers(TableStaging s, int from, Integer... values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                s.setNull(from + i);
            } else {
                s.setLong(from + i, values[i]);
            }
        }
    }

    /**
     * A column's type as PostgreSQL's information_schema describes it: its {@code data_type}, {@code udt_name}, and
     * the lengths and precisions PostgreSQL gives that type (null where it gives none).
     */
    private record SqlType(
            String dataType,
            String udtName,
            Integer octets,
            Integer precision,
            Integer radix,
            Integer scale,
            Integer datetime) {

        static SqlType of(ColumnSpec c) {
            if (c.isDecimal()) {
                return new SqlType("numeric", "numeric", null, c.precision(), 10, c.scale(), null);
            }
            return switch (c.type()) {
                case STRING -> new SqlType("text", "text", 1_073_741_824, null, null, null, null);
                case INT, LONG -> new SqlType("bigint", "int8", null, 64, 2, 0, null);
                case DOUBLE -> new SqlType("double precision", "float8", null, 53, 2, null, null);
                case DATE -> new SqlType("date", "date", null, null, null, null, 0);
                case TIMESTAMP -> new SqlType("timestamp without time zone", "timestamp", null, null, null, null, 6);
                case BOOLEAN -> new SqlType("boolean", "bool", null, null, null, null, null);
                case DECIMAL -> new SqlType("numeric", "numeric", null, null, 10, null, null);
            };
        }
    }
}
