package io.numacube.engine.ingest.csv;

/**
 * What one completed read did. Immutable.
 *
 * @param rows    data rows handed to the sink
 * @param bytes   input bytes read
 * @param nanos   wall time of the read, in nanoseconds
 */
public record CsvReadSummary(long rows, long bytes, long nanos) {

    /** Rows per second, or 0 for an instantaneous read. */
    public double rowsPerSecond() {
        return nanos == 0 ? 0 : rows * 1e9 / nanos;
    }
}
