package io.numacube.server.wal;

/**
 * Counters of a {@link WriteAheadLog} since it was opened, as one snapshot. Each counter is exact, but a snapshot
 * taken while appends run may mix moments (records of a batch counted before its fsync).
 *
 * @param records       records written
 * @param bytes         bytes written: record headers and payloads, and segment headers
 * @param fsyncs        forces of segment files and of the log directory (a new segment costs one of each more)
 * @param commitBatches group commits: writes of one batch of records acknowledged together
 */
public record WalStats(long records, long bytes, long fsyncs, long commitBatches) {

    /** Records per group commit, or 0 before the first. */
    public double recordsPerCommit() {
        return commitBatches == 0 ? 0 : (double) records / commitBatches;
    }
}
