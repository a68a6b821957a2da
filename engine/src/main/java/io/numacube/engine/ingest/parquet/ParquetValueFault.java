package io.numacube.engine.ingest.parquet;

import io.numacube.numa.base.NumacubeException;

/**
 * A value of a row group that the staging cannot hold, found while decoding a column: where it is and why, until the
 * decoder has seen every column of the batch and reports the first fault by row (then by column). Immutable.
 *
 * @param row    the row within the row group, 0-based
 * @param column the column's index in the staged schema
 * @param what   why, e.g. {@code the value NaN is not finite (...)}
 * @param sqlState the SQLSTATE to report, 22P02 unless another fits better
 */
record ParquetValueFault(int row, int column, String what, String sqlState) {

    ParquetValueFault(int row, int column, String what) {
        this(row, column, what, "22P02");
    }

    /** {@code FILE: row R (row group G), column C: what}, R counted from 1 over the whole file. */
    NumacubeException toException(ParquetLayout layout, int group) {
        long row = layout.firstRowOf(group) + this.row;
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                sqlState,
                layout.file() + ": row " + (row + 1) + " (row group " + group + "), column "
                        + layout.columns().get(column).name() + ": " + what,
                null,
                null);
    }
}
