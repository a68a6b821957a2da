package io.numacube.engine.ingest.csv;

/**
 * Told how far a read has come, every {@link CsvTableReader#PROGRESS_EVERY_ROWS} rows and once at the end. Called on
 * the reading thread; must be cheap and must not throw.
 */
@FunctionalInterface
public interface CsvProgress {

    /** A listener that ignores everything. */
    CsvProgress NONE = (rows, bytesRead, totalBytes) -> {};

    /**
     * @param rows       data rows read so far
     * @param bytesRead  input bytes consumed so far
     * @param totalBytes the input size in bytes, or -1 when unknown
     */
    void update(long rows, long bytesRead, long totalBytes);
}
