package io.numacube.engine;

import io.numacube.engine.plan.LogicalQuery;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bound queries of the texts run last, each kept with the {@linkplain CubeTables.Snapshot#generation generation}
 * of the snapshot it was bound over, so that a statement run again over the same tables (a dashboard's query, a
 * benchmark's) is not parsed and bound again: for a short TPC-H query that is a third of the calling thread's work.
 *
 * <p>What binding reads from outside the text is the snapshot (the tables' schemas, row counts, dictionaries, deleted
 * rows), and the clock, for {@code now()}, {@code current_date} and their synonyms. A kept query is handed out only for
 * the same text over the same snapshot generation: any write, load, drop or rearrangement publishes a snapshot of a
 * new generation, so the next run binds again. A text that names a clock function (a word that is one, anywhere in it,
 * quoted or not) is never kept: it reads the clock at each statement. Only statements bound in one step (no subquery,
 * no information_schema view: what {@link Cube} binds from the text alone) come here; a failure to bind is not kept,
 * so its error is raised again at every call. {@link LogicalQuery} is immutable, so one instance serves every caller.
 *
 * <p>At most {@link #CAPACITY} texts of at most {@link #MAX_TEXT_CHARS} characters, the least recently used dropped
 * first. Thread-safe: a lock guards the map; binding runs outside it (two threads binding the same new text both
 * bind it).
 */
final class BoundStatements {

    /** The most queries kept. */
    static final int CAPACITY = 128;

    /** Longer texts are bound at every call and not kept. */
    static final int MAX_TEXT_CHARS = 4096;

    /** The system property that, {@code false}, binds every text at every call. */
    static final String PROPERTY = "numacube.boundCache";

    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private record Kept(long generation, LogicalQuery query) {}

    private final Map<String, Kept> kept = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
            return size() > CAPACITY;
        }
    };

    /** The query {@code sql} binds to over the snapshot of {@code generation}: the kept one, or {@code binder}'s. */
    LogicalQuery bound(String sql, long generation, Supplier<LogicalQuery> binder) {
        if (sql.length() > MAX_TEXT_CHARS || "false".equals(System.getProperty(PROPERTY))) {
            return binder.get();
        }
        Kept k;
        synchronized (kept) {
            k = kept.get(sql);
        }
        if (k != null && k.generation() == generation) {
            return k.query();
        }
        if (k == null && readsClock(sql)) {
            return binder.get();
        }
        LogicalQuery q = binder.get();
        synchronized (kept) {
            kept.put(sql, new Kept(generation, q));
        }
        return q;
    }

    /** Whether a word of {@code sql} names a function read as the statement's clock. */
    static boolean readsClock(String sql) {
        Matcher m = WORD.matcher(sql);
        while (m.find()) {
            if (io.numacube.engine.sql.StatementClock.isClockFunction(m.group())) {
                return true;
            }
        }
        return false;
    }
}
