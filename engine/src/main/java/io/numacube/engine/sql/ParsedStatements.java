package io.numacube.engine.sql;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.sql.SqlNode;

/**
 * The parse trees of the query texts parsed last, by their exact text, so that a statement run again (a dashboard's
 * query, a benchmark's) is not parsed again: Calcite's parser takes about a millisecond for a TPC-H query, a fifth of
 * the planning of the small ones. A text's tree is kept from its second parse (a text seen once, as most texts with
 * their parameters written in are, costs no copy), and only where its copy is equal to it node for node and unparses
 * to the same text (checked once, when it is kept). A kept tree is never handed out: each later call gets a {@link
 * SqlTreeCopy} of it, which the caller may change in place as the binders and rewrites do. A text that fails to parse
 * is not kept, so its error is raised again at every call. What parsing reads from outside the text (the clock) is
 * applied by the caller to the copy, after this.
 *
 * <p>At most {@link #CAPACITY} texts, parsed once or kept, each of at most {@link #MAX_TEXT_CHARS} characters (a
 * tree takes some 150 bytes per literal or name: up to about 200 KB), the least recently used dropped first: many
 * texts seen once push the kept ones out. Thread-safe: a lock guards the map; parsing and copying run outside it (two
 * threads parsing the same new text both parse it).
 */
final class ParsedStatements {

    /** The most trees kept. */
    static final int CAPACITY = 128;

    /** Longer texts are parsed at every call and not kept (a long IN list's tree is large); TPC-H's are under 1,500. */
    static final int MAX_TEXT_CHARS = 4096;

    /** The system property that, {@code false}, parses every text at every call. */
    static final String PROPERTY = "numacube.parseCache";

    /** Stands in {@link #trees} for a text parsed once and not kept yet. */
    private static final SqlNode SEEN =
            org.apache.calcite.sql.SqlLiteral.createNull(org.apache.calcite.sql.parser.SqlParserPos.ZERO);

    private final Map<String, SqlNode> trees = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SqlNode> eldest) {
            return size() > CAPACITY;
        }
    };

    /**
     * A tree of {@code sql} for the caller to own: a copy of the kept one, or {@code parser}'s tree of it (at its
     * second parse kept, and a copy of it returned, where it may be kept).
     */
    SqlNode parse(String sql, Function<String, SqlNode> parser) {
        if (sql == null || sql.length() > MAX_TEXT_CHARS || "false".equals(System.getProperty(PROPERTY))) {
            return parser.apply(sql);
        }
        SqlNode kept;
        synchronized (trees) {
            kept = trees.get(sql);
        }
        if (kept != null && kept != SEEN) {
            return SqlTreeCopy.of(kept);
        }
        SqlNode parsed = parser.apply(sql);
        if (kept == null) {
            synchronized (trees) {
                trees.putIfAbsent(sql, SEEN);
            }
            return parsed;
        }
        SqlNode copy = copyIfFaithful(parsed);
        if (copy == null) {
            return parsed;
        }
        synchronized (trees) {
            trees.put(sql, parsed);
        }
        return copy;
    }

    /** A copy of {@code tree} where it is equal to it and unparses to the same text, else null. */
    private static SqlNode copyIfFaithful(SqlNode tree) {
        try {
            SqlNode copy = SqlTreeCopy.of(tree);
            return copy.equalsDeep(tree, org.apache.calcite.util.Litmus.IGNORE)
                            && copy.toString().equals(tree.toString())
                    ? copy
                    : null;
        } catch (RuntimeException e) {
            // an operator that cannot rebuild its call from operands: such a text is parsed at every call
            return null;
        }
    }
}
