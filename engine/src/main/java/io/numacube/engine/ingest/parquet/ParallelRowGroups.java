package io.numacube.engine.ingest.parquet;

import dev.hardwood.HardwoodContext;
import dev.hardwood.InputFile;
import dev.hardwood.reader.ParquetFileReader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Decodes one Parquet file's row groups in parallel and stages them in file order: one task per worker of the pool
 * (on every node, so each runs on a worker pinned to its node) claims row groups in ascending order from a
 * {@link RowGroupHandoff}, decodes each with its own file reader and {@link RowGroupDecoder}, and hands the block over;
 * the calling thread appends the blocks as they come, in order, at most two per worker ahead, so the decoded copy of
 * the file never waits whole on the heap. hardwood decompresses pages on its own threads (one per worker, shared by
 * the workers' readers).
 *
 * <p>A failure stops the claims after its row group and is thrown once every earlier row group is staged: the first
 * bad value in file order, as a serial read reports it. One use per file read; the staging thread must not be one of
 * the pool's workers.
 */
final class ParallelRowGroups {

    /** Blocks decoded ahead of the staging thread, per worker. */
    static final int AHEAD_PER_WORKER = 2;

    private final Path file;
    private final ParquetLayout layout;
    private final TableSchema schema;
    private final WorkerPool workers;

    ParallelRowGroups(Path file, ParquetLayout layout, TableSchema schema, WorkerPool workers) {
        this.file = file;
        this.layout = layout;
        this.schema = schema;
        this.workers = workers;
    }

    /** Appends every row group to {@code staging}, reporting the rows staged from this file to {@code progress}. */
    void stageInto(TableStaging staging, ProgressListener progress) {
        int tasks = Math.min(workers.workerCount(), layout.groups());
        RowGroupHandoff handoff = new RowGroupHandoff(layout.groups(), AHEAD_PER_WORKER * tasks);
        List<CompletableFuture<Void>> running = new ArrayList<>();
        try (HardwoodContext context = HardwoodContext.create(tasks)) {
            for (int node : workers.nodes()) {
                for (int i = 0; i < workers.workersOn(node) && running.size() < tasks; i++) {
                    CompletableFuture<Void> f = workers.submit(node, () -> decodeClaimed(context, handoff));
                    f.whenComplete((ok, failure) -> {
                        if (failure != null) {
                            handoff.abort(failure);
                        }
                    });
                    running.add(f);
                }
            }
            try {
                appendInOrder(handoff, staging, progress);
            } finally {
                handoff.abort(new IllegalStateException("the staging thread stopped"));
                CompletableFuture.allOf(running.toArray(CompletableFuture[]::new))
                        .exceptionally(ignored -> null)
                        .join();
            }
        }
    }

    private void appendInOrder(RowGroupHandoff handoff, TableStaging staging, ProgressListener progress) {
        int rowsBefore = staging.rows();
        try {
            for (int g = 0; g < layout.groups(); g++) {
                staging.append(handoff.take(g));
                progress.progress(staging.rows() - rowsBefore, layout.totalRows());
            }
        } catch (RowGroupHandoff.RowGroupFailure f) {
            throw rethrown(f.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL, "interrupted while a Parquet file was staged: file=" + file, e);
        }
    }

    /** One worker's share: row groups claimed until none is left, each decoded or its failure handed over. */
    private Void decodeClaimed(HardwoodContext context, RowGroupHandoff handoff) throws InterruptedException {
        ParquetFileReader reader = null;
        try {
            RowGroupDecoder decoder = new RowGroupDecoder(layout, schema);
            for (int g = handoff.claim(); g >= 0; g = handoff.claim()) {
                try {
                    if (reader == null) {
                        reader = ParquetFileReader.open(InputFile.of(file), context);
                    }
                    handoff.done(g, decoder.decode(reader, g));
                } catch (IOException | RuntimeException | Error e) {
                    handoff.failed(g, e);
                }
            }
            return null;
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (IOException | RuntimeException ignored) {
                    // the row groups are read; a failure to release the file changes nothing staged
                }
            }
        }
    }

    /** A worker's failure as the serial read would throw it: ours as they are, hardwood's as an unreadable file. */
    private RuntimeException rethrown(Throwable failure) {
        if (failure instanceof NumacubeException n) {
            return n;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return ParquetStagingLoader.unreadable(
                file, failure instanceof Exception e ? e : new RuntimeException(failure));
    }
}
