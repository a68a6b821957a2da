package io.numacube.engine.storage;

/**
 * Told how far a load or generation has got. Called from worker threads, possibly concurrently, so implementations
 * must be thread-safe and quick (the CLI's progress bar rate-limits its own output).
 */
@FunctionalInterface
public interface ProgressListener {

    /** A listener that ignores everything. */
    ProgressListener NONE = (done, total) -> {};

    /**
     * @param rowsDone  rows finished so far (monotonic per operation, may be reported more than once)
     * @param rowsTotal rows the operation will produce
     */
    void progress(long rowsDone, long rowsTotal);
}
