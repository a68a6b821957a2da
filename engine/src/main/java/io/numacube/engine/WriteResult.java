package io.numacube.engine;

/**
 * What one change of a write did ({@link Cube#write}). Immutable.
 *
 * @param table   the table's name as the cube has it
 * @param rows    rows appended (an upsert's replaced rows not counted) or deleted
 * @param version the table's version once the write is published (its current one when nothing changed)
 */
public record WriteResult(String table, long rows, long version) {}
