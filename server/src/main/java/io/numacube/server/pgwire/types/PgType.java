package io.numacube.server.pgwire.types;

import io.numacube.engine.schema.ColumnType;
import java.util.Optional;

/**
 * The PostgreSQL types numacube speaks on the wire, with their type OIDs ({@code pg_type.oid}) and lengths
 * ({@code typlen}, -1 for variable) as PostgreSQL defines them. Engine columns map to {@link #of(ColumnType)}: text to
 * {@code text}, the 64-bit INT and LONG to {@code int8}, DOUBLE to {@code float8}, DECIMAL to {@code numeric},
 * DATE, TIMESTAMP (without time zone) and BOOLEAN to their namesakes. The others answer catalog queries and
 * parameters. Each carries PostgreSQL's {@code typarray} and SQL name, so that {@code pg_type} can be answered from
 * these constants alone. Immutable.
 */
public enum PgType {
    BOOL(16, 1, "bool", 1000, "boolean"),
    BYTEA(17, -1, "bytea", 1001, "bytea"),
    CHAR(18, 1, "char", 1002, "\"char\""),
    NAME(19, 64, "name", 1003, "name"),
    INT8(20, 8, "int8", 1016, "bigint"),
    INT2(21, 2, "int2", 1005, "smallint"),
    INT4(23, 4, "int4", 1007, "integer"),
    REGPROC(24, 4, "regproc", 1008, "regproc"),
    TEXT(25, -1, "text", 1009, "text"),
    OID(26, 4, "oid", 1028, "oid"),
    FLOAT4(700, 4, "float4", 1021, "real"),
    FLOAT8(701, 8, "float8", 1022, "double precision"),
    UNKNOWN(705, -2, "unknown", 0, "unknown"),
    /** {@code text[]}, whose values are {@code List<String>}: only catalog answers carry it (SQLAlchemy's key columns). */
    TEXT_ARRAY(1009, -1, "_text", 0, "text[]"),
    BPCHAR(1042, -1, "bpchar", 1014, "character"),
    VARCHAR(1043, -1, "varchar", 1015, "character varying"),
    DATE(1082, 4, "date", 1182, "date"),
    TIMESTAMP(1114, 8, "timestamp", 1115, "timestamp without time zone"),
    TIMESTAMPTZ(1184, 8, "timestamptz", 1185, "timestamp with time zone"),
    NUMERIC(1700, -1, "numeric", 1231, "numeric");

    /** The OID a client sends for a parameter whose type it leaves to the server. */
    public static final int UNSPECIFIED = 0;

    private final int oid;
    private final short length;
    private final String typeName;
    private final int arrayOid;
    private final String sqlName;

    PgType(int oid, int length, String typeName, int arrayOid, String sqlName) {
        this.oid = oid;
        this.length = (short) length;
        this.typeName = typeName;
        this.arrayOid = arrayOid;
        this.sqlName = sqlName;
    }

    public int oid() {
        return oid;
    }

    /** {@code pg_type.typlen}: bytes of a fixed-length value, -1 variable, -2 a C string. */
    public short length() {
        return length;
    }

    /** {@code pg_type.typname}. */
    public String typeName() {
        return typeName;
    }

    /** {@code pg_type.typarray}: the OID of PostgreSQL's array of this type, 0 for none (an array's own). */
    public int arrayOid() {
        return arrayOid;
    }

    /** The name PostgreSQL's {@code format_type} and {@code oid::regtype::text} give the type: {@code bigint}. */
    public String sqlName() {
        return sqlName;
    }

    /** The wire type of an engine column. */
    public static PgType of(ColumnType type) {
        return switch (type) {
            case STRING -> TEXT;
            case INT, LONG -> INT8;
            case DOUBLE -> FLOAT8;
            case DATE -> DATE;
            case TIMESTAMP -> TIMESTAMP;
            case BOOLEAN -> BOOL;
            case DECIMAL -> NUMERIC;
        };
    }

    public static Optional<PgType> byOid(int oid) {
        for (PgType t : values()) {
            if (t.oid == oid) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** {@code atttypmod} of a {@code numeric(precision, scale)}: PostgreSQL's {@code ((p << 16) | s) + 4}. */
    public static int numericTypmod(int precision, int scale) {
        return ((precision << 16) | scale) + 4;
    }
}
