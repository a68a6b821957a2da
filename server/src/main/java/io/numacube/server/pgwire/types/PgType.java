package io.numacube.server.pgwire.types;

import io.numacube.engine.schema.ColumnType;
import java.util.Optional;

/**
 * The PostgreSQL types numacube speaks on the wire, with their type OIDs ({@code pg_type.oid}) and lengths
 * ({@code typlen}, -1 for variable) as PostgreSQL defines them. Engine columns map to {@link #of(ColumnType)}: text to
 * {@code text}, the 64-bit INT and LONG to {@code int8}, DOUBLE to {@code float8}, DECIMAL to {@code numeric},
 * DATE, TIMESTAMP (without time zone) and BOOLEAN to their namesakes. The others answer catalog queries and
 * parameters. Immutable.
 */
public enum PgType {
    BOOL(16, 1, "bool"),
    BYTEA(17, -1, "bytea"),
    CHAR(18, 1, "char"),
    NAME(19, 64, "name"),
    INT8(20, 8, "int8"),
    INT2(21, 2, "int2"),
    INT4(23, 4, "int4"),
    REGPROC(24, 4, "regproc"),
    TEXT(25, -1, "text"),
    OID(26, 4, "oid"),
    FLOAT4(700, 4, "float4"),
    FLOAT8(701, 8, "float8"),
    UNKNOWN(705, -2, "unknown"),
    BPCHAR(1042, -1, "bpchar"),
    VARCHAR(1043, -1, "varchar"),
    DATE(1082, 4, "date"),
    TIMESTAMP(1114, 8, "timestamp"),
    TIMESTAMPTZ(1184, 8, "timestamptz"),
    NUMERIC(1700, -1, "numeric");

    /** The OID a client sends for a parameter whose type it leaves to the server. */
    public static final int UNSPECIFIED = 0;

    private final int oid;
    private final short length;
    private final String typeName;

    PgType(int oid, int length, String typeName) {
        this.oid = oid;
        this.length = (short) length;
        this.typeName = typeName;
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
