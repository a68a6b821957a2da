package io.numacube.engine;

import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.GrowingDictionary;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cube as a sequence of writes would leave it, kept unpublished between calls, so that a transaction block's next
 * statement is tried on top of its earlier ones ({@link Cube#trial(WriteTrial, java.util.List)}) rather than after all
 * of them applied again: a block of n writes costs n applications, not n²/2.
 *
 * <p>Invariants: empty (no base, no write) or built on one snapshot of the cube, its <em>base</em>, which it holds (the
 * versions it lists stay alive until the trial is reset or closed); {@link #writes()} is how many writes of its
 * caller's sequence, from the first, it holds applied onto the base, in order; per table they changed, an unpublished
 * version that only this trial sees, grown with dictionaries of its own (the cube's are not touched, so nothing it
 * tried leaks into a published version). It is built again from the start when the base is no longer the cube's current
 * snapshot (another writer published meanwhile), when the caller's sequence is shorter than what it holds (a savepoint
 * rolled back to), and after a write failed on it (an applied write may have left it half-changed).
 *
 * <p>Memory: the trial owns its unpublished versions and its hold on the base; {@link #reset()} or {@link #close()}
 * frees them. Not thread-safe: one owner (a session) uses it, one call at a time; the cube's load lock guards each
 * call that applies writes.
 */
public final class WriteTrial implements AutoCloseable {

    private final Cube cube;
    /** The snapshot the writes are applied onto; null while the trial holds none. */
    CubeTables.Snapshot base;
    /** The cube's key generation when {@link #base} was taken: a changed upsert key makes the trial stale. */
    long keys;
    /** Per table key, its unpublished version (or its published one, where a write changed no row). */
    final Map<String, FactTable> next = new LinkedHashMap<>();
    /** Per table key, the growing dictionaries of the trial's appends to it. */
    final Map<String, GrowingDictionary[]> growing = new HashMap<>();

    private int writes;
    private long applications;

    WriteTrial(Cube cube) {
        this.cube = cube;
    }

    /** How many writes of its caller's sequence the trial holds applied, from the first. */
    public int writes() {
        return writes;
    }

    /**
     * How many writes were applied to the trial since it was opened, those applied again when it was built anew
     * included: what a block's statements cost, countable without timing them.
     */
    public long applications() {
        return applications;
    }

    /** Frees what the trial holds; the next call builds it again from the first write. */
    public void reset() {
        if (base != null || !next.isEmpty()) {
            cube.discardTrial(this);
        }
        writes = 0;
    }

    /** As {@link #reset()}; the trial may still be used afterwards. */
    @Override
    public void close() {
        reset();
    }

    boolean of(Cube c) {
        return cube == c;
    }

    void applied() {
        writes++;
        applications++;
    }
}
