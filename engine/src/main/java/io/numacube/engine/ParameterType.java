package io.numacube.engine;

import io.numacube.engine.schema.ColumnType;

/**
 * The type binding inferred for a statement's parameter that the client left untyped ({@link Cube#parameterTypes}):
 * the type of the operand it met first, or the one it is cast to. Immutable.
 *
 * @param type  its column type, never null
 * @param scale digits after the point, above 0 for a DECIMAL (whose type is {@link ColumnType#LONG}); else 0
 */
public record ParameterType(ColumnType type, int scale) {

    public ParameterType {
        java.util.Objects.requireNonNull(type, "type must not be null");
        if (scale < 0) {
            throw new IllegalArgumentException("scale must be 0 or more: " + scale);
        }
    }
}
