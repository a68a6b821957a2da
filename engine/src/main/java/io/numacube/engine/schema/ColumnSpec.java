package io.numacube.engine.schema;

import io.numacube.numa.base.NumacubeException;

/**
 * One column of a table: its name and type. A DIMENSION is any column of a dictionary-encoded type; a MEASURE any
 * column of a numeric measure type. Immutable.
 *
 * @param name the column name, compared case-insensitively
 * @param type the value type
 */
public record ColumnSpec(String name, ColumnType type) {

    public ColumnSpec {
        if (name == null || name.isBlank()) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "column name must not be blank");
        }
    }

    public boolean isDimension() {
        return type.isDimension();
    }

    public static ColumnSpec of(String name, ColumnType type) {
        return new ColumnSpec(name, type);
    }
}
