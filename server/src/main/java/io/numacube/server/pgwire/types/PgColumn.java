package io.numacube.server.pgwire.types;

/**
 * One column of a row description: its name, wire type and type modifier ({@code atttypmod}: -1 when none,
 * {@link PgType#numericTypmod} for a numeric). Immutable.
 */
public record PgColumn(String name, PgType type, int typmod) {

    public PgColumn {
        java.util.Objects.requireNonNull(name, "name must not be null");
        java.util.Objects.requireNonNull(type, "type must not be null");
    }

    public static PgColumn of(String name, PgType type) {
        return new PgColumn(name, type, -1);
    }
}
