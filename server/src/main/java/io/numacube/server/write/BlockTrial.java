package io.numacube.server.write;

import io.numacube.engine.TableWrite;
import io.numacube.engine.WriteTrial;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A transaction block's trial of its writes so far ({@link WriteTrial}: the cube as they leave it, unpublished), with
 * the batches it holds applied, so that {@link WriteService#trialRows(BlockTrial, List)} applies only a block's new
 * statements: a block of n UPDATEs costs n applications before its COMMIT, not n²/2.
 *
 * <p>Invariant: the trial holds {@link #applied} applied, in order; a block whose batches no longer begin with them
 * (the very same objects: a ROLLBACK TO dropped some) gets a trial built again from its first batch. Memory: holds
 * the trial's unpublished versions until {@link #close()} (a block's end), and each batch it was given read as the
 * engine's write (staged once per block: its rows parsed once, whether applied to the trial, built again or applied at
 * COMMIT). Not thread-safe: its session's thread owns it.
 */
public final class BlockTrial implements AutoCloseable {

    private final WriteTrial trial;
    private final List<WriteService.Batch> applied = new ArrayList<>();
    /** Each batch of the block read as the engine's write, by identity. */
    private final Map<WriteService.Batch, TableWrite> staged = new IdentityHashMap<>();

    BlockTrial(WriteTrial trial) {
        this.trial = trial;
    }

    /**
     * How many batches were applied to the trial since it was opened, those applied again when it was built anew
     * included (another session committed meanwhile, a savepoint was rolled back to): what the block's statements cost,
     * countable without timing them.
     */
    public long applications() {
        return trial.applications();
    }

    WriteTrial trial() {
        return trial;
    }

    /**
     * How many leading batches of {@code block} the trial holds applied; when they are not all it holds, the trial is
     * reset first (0).
     */
    int heldOf(List<WriteService.Batch> block) {
        int n = applied.size();
        boolean leads = n <= block.size() && trial.writes() == n;
        for (int i = 0; leads && i < n; i++) {
            leads = applied.get(i) == block.get(i);
        }
        if (!leads) {
            reset();
            return 0;
        }
        return n;
    }

    /** Records that the trial now holds the first {@link WriteTrial#writes()} batches of {@code block} applied. */
    void holds(List<WriteService.Batch> block) {
        int n = Math.min(trial.writes(), block.size());
        if (applied.size() > n) {
            applied.subList(n, applied.size()).clear();
        }
        applied.addAll(block.subList(applied.size(), n));
    }

    /** {@code batch} read as the engine's write by {@code stage}, once per block. */
    TableWrite staged(WriteService.Batch batch, Function<WriteService.Batch, TableWrite> stage) {
        TableWrite w = staged.get(batch);
        if (w == null) {
            w = stage.apply(batch);
            staged.put(batch, w);
        }
        return w;
    }

    /** Frees the trial's versions; the next statement builds it again from the block's first batch. */
    public void reset() {
        trial.reset();
        applied.clear();
    }

    /** Frees the trial's versions and the block's staged writes. */
    @Override
    public void close() {
        reset();
        staged.clear();
    }
}
