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
 * rolled back to), and after a write failed on it (an applied write may have left it half-changed). {@link #results()}
 * holds, per write it holds, what that write did. A trial whose base is still current can be published as it is
 * ({@link Cube#publishTrial}): its versions are exactly what {@link Cube#write} of its writes would publish, so a block's
 * COMMIT need not apply them again; it is then empty.
 *
 * <p>Memory: the trial owns its unpublished versions and its hold on the base; {@link #reset()} or {@link #close()}
 * frees them. Not thread-safe: one owner (a session) uses it, one call at a time; the cube's load lock guards each
 * call that applies writes.
 */
public final class WriteTrial implements AutoCloseable {

    private final CubeWrites writes;
    /** The snapshot the writes are applied onto; null while the trial holds none. */
    CubeTables.Snapshot base;
    /** The cube's key generation when {@link #base} was taken: a changed upsert key makes the trial stale. */
    long keys;
    /** The cube's layout of new data when {@link #base} was taken: the trial's appended rows were placed by it. */
    io.numacube.engine.storage.TableBuilder.NodeLayout layout;
    /** Per table key, its unpublished version (or its published one, where a write changed no row). */
    final Map<String, FactTable> next = new LinkedHashMap<>();
    /** Per table key, the growing dictionaries of the trial's appends to it. */
    final Map<String, GrowingDictionary[]> growing = new HashMap<>();

    /** Per write held, in order: its table, its rows, and the base's version of the table. */
    private final java.util.List<WriteResult> results = new java.util.ArrayList<>();

    private long applications;

    WriteTrial(CubeWrites writes) {
        this.writes = writes;
    }

    /** How many writes of its caller's sequence the trial holds applied, from the first. */
    public int writes() {
        return results.size();
    }

    /** Per write held, in order, what it did: its table, its rows, and the version of the table the trial is built on. */
    java.util.List<WriteResult> results() {
        return java.util.Collections.unmodifiableList(results);
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
            writes.discardTrial(this);
        }
        results.clear();
    }

    /** As {@link #reset()}; the trial may still be used afterwards. */
    @Override
    public void close() {
        reset();
    }

    boolean of(CubeWrites w) {
        return writes == w;
    }

    void applied(WriteResult result) {
        results.add(result);
        applications++;
    }
}
