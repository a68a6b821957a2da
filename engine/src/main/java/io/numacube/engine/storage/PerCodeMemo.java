package io.numacube.engine.storage;

/**
 * Tables computed per code of a table's columns (an expression's values or NULL-ness per code, a derived group key),
 * kept for the next query that asks with the same key, least recently used dropped first, bounded by the codes they
 * cover in all. Thread-safe: lookups and insertions hold the map's lock; a table is computed outside it.
 */
final class PerCodeMemo {

    /** Most codes over all the per-code tables kept (about 1 GiB at 16 bytes a code), least recently used dropped. */
    private static final long MEMO_MAX_TOTAL_CODES = 1L << 26;
    /** Tables over more codes than this are computed for each query, not kept. */
    private static final int MEMO_MAX_CODES = 1 << 24;

    /** A kept per-code table and the codes it covers. */
    private record Memo(Object table, long codes) {}

    private final java.util.LinkedHashMap<String, Memo> memo = new java.util.LinkedHashMap<>(16, 0.75f, true);
    private long memoCodes;

    /**
     * A table computed per code of this table's columns (an expression's value or NULL-ness per code), kept for the
     * next query that asks with the same {@code key}: the dictionaries are immutable, so the table is too. The caller
     * makes the key say everything the table depends on; a table computed through joined tables names each by its
     * {@link CodedColumns#memoToken}, so it is never found once one of them is replaced. Two queries may compute one
     * table at once; either result is kept.
     */
    @SuppressWarnings("unchecked")
    <T> T get(String key, long codes, java.util.function.Supplier<T> compute) {
        if (codes > MEMO_MAX_CODES) {
            return compute.get();
        }
        synchronized (memo) {
            Memo m = memo.get(key);
            if (m != null) {
                return (T) m.table();
            }
        }
        T v = compute.get();
        synchronized (memo) {
            Memo before = memo.put(key, new Memo(v, codes));
            memoCodes += codes - (before == null ? 0 : before.codes());
            var eldest = memo.entrySet().iterator();
            while (memoCodes > MEMO_MAX_TOTAL_CODES && eldest.hasNext()) {
                memoCodes -= eldest.next().getValue().codes();
                eldest.remove();
            }
        }
        return v;
    }

    /** Drops the kept tables whose key holds {@code token}. */
    void dropMentioning(String token) {
        synchronized (memo) {
            var entries = memo.entrySet().iterator();
            while (entries.hasNext()) {
                var e = entries.next();
                if (e.getKey().contains(token)) {
                    memoCodes -= e.getValue().codes();
                    entries.remove();
                }
            }
        }
    }

    /** Drops every kept table. */
    void clear() {
        synchronized (memo) {
            memo.clear();
            memoCodes = 0;
        }
    }
}
