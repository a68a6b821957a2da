package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TextOrder;

/**
 * The writer's side of one dimension of a table that rows are appended to: gives each new value the next code, after
 * the codes of the dictionary it started from ({@link DictionaryBuilder#extending}), so that the rows already placed
 * keep their codes, and tells whether each grown dictionary still follows value order (it does while every new value
 * comes after the others and NULL stays last: dates and ids that grow, for instance).
 *
 * <p>Invariant: {@link #snapshot()} gives a dictionary that extends the previous snapshot (the first: the starting
 * dictionary). Owned by the one thread that appends to the table; not thread-safe. A writer whose append failed
 * drops it (its codes may name values no placed row holds) and starts again from the table's dictionary.
 */
public final class GrowingDictionary {

    private final DictionaryBuilder codes;
    private Dictionary published;

    public GrowingDictionary(Dictionary start) {
        this.codes = DictionaryBuilder.extending(start);
        this.published = start;
    }

    /** Codes the values of {@code batch} here: {@code map[batchCode]} is the code here; new values get new codes. */
    public int[] add(DictionaryBuilder batch) {
        return codes.addAll(batch);
    }

    /** The code of {@code value} (a String, or a Long for INT, DATE and BOOLEAN), or -1 when it has none. */
    public int find(Object value) {
        return value instanceof String s ? codes.find(s) : codes.find((Long) value);
    }

    /** The dictionary of every code given so far, extending the previous snapshot. */
    public Dictionary snapshot() {
        if (codes.size() == published.size()) {
            return published;
        }
        published = Dictionary.grown(codes.snapshot(published.sorted() && newCodesSorted(published)), published);
        return published;
    }

    /** Whether the codes after {@code before}'s keep value order: each new value after the last, NULL last. */
    private boolean newCodesSorted(Dictionary before) {
        int n = codes.size();
        int nullCode = codes.nullCodeIfAny();
        if (before.nullCode() >= 0 || (nullCode >= 0 && nullCode != n - 1)) {
            return false;
        }
        int end = nullCode >= 0 ? n - 1 : n;
        for (int c = Math.max(1, before.size()); c < end; c++) {
            if (compare(c - 1, c) >= 0) {
                return false;
            }
        }
        return true;
    }

    private int compare(int a, int b) {
        return codes.type() == ColumnType.STRING
                ? TextOrder.compare(codes.stringAt(a), codes.stringAt(b))
                : Long.compare(codes.longAt(a), codes.longAt(b));
    }
}
