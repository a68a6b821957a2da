package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The text values of one table's columns, decoded once and kept across the CSV batches appended to it, so that a
 * value an earlier batch held (a counterparty, a book) is looked up by its bytes, not decoded, copied and hashed anew
 * per batch. Each read of a batch (or of one chunk of it) takes a set of per-column caches for itself and gives it
 * back when done, so that sets are never shared between threads; there are as many sets as reads ran at once. What a
 * read stages does not depend on the caches (they return the same Strings a fresh decode would, and no code of an
 * earlier read), only how long it takes. Each column's cache holds at most {@value StringCache#MAX_ENTRIES} values and
 * starts again when full.
 *
 * <p>Thread-safe. Bound to one schema: a batch of a table whose schema changed needs a new one ({@link #fits}).
 */
public final class CsvValueCaches {

    private final TableSchema schema;
    private final ConcurrentLinkedDeque<StringCache[]> idle = new ConcurrentLinkedDeque<>();

    public CsvValueCaches(TableSchema schema) {
        this.schema = java.util.Objects.requireNonNull(schema, "schema must not be null");
    }

    /** Whether these caches serve batches of {@code other}: the schema they were made for. */
    public boolean fits(TableSchema other) {
        return schema.equals(other);
    }

    /** A set of caches indexed by column (null for a column that is not text), each begun for a new read. */
    StringCache[] take() {
        StringCache[] set = idle.pollFirst();
        if (set == null) {
            set = new StringCache[schema.size()];
            for (int c = 0; c < set.length; c++) {
                if (schema.column(c).type() == ColumnType.STRING) {
                    set[c] = new StringCache();
                }
            }
        }
        for (StringCache cache : set) {
            if (cache != null) {
                cache.beginRead();
            }
        }
        return set;
    }

    /** Gives back a set that {@link #take} returned, once its read is done. */
    void give(StringCache[] set) {
        idle.offerFirst(set);
    }
}
