package io.numacube.server.pgwire.types;

import java.util.List;

/**
 * Rows to send to a client: the engine's answer to a query ({@link EngineRows}) or rows the server makes itself
 * ({@link FixedRows}: {@code SHOW}, {@code SELECT version()}, catalog queries). A value is null, or the Java value of
 * its column's type: String for text types, Long for integer types and {@code oid}, Double, BigDecimal, Boolean,
 * LocalDate, LocalDateTime, OffsetDateTime (a {@code timestamptz} in the session's zone). Immutable.
 */
public interface RowSet {

    List<PgColumn> columns();

    int rowCount();

    Object value(int row, int column);
}
