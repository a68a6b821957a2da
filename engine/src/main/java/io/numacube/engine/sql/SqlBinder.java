package io.numacube.engine.sql;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.TableSchema;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;

/**
 * Turns SQL text into a {@link LogicalQuery}: Apache Calcite's Babel parser builds the syntax tree ({@code SqlTextParser}),
 * and the binders resolve names against the catalog, check types and the supported shape, and collect the
 * aggregates: {@code QueryBinder} per statement, which uses {@code FromClauseBinder}, {@code GroupByBinder},
 * {@code ExpressionBinder} (with {@code AggregateBinder}) and {@code OrderByBinder}. Calcite's validator and optimizer
 * are not used. This class is the package's entry point.
 *
 * <p>Supported: {@code SELECT items FROM fact [alias] [[INNER] JOIN lookup [alias] USING (k) | ON a.k = b.k]
 * [WHERE p] [GROUP BY dims (names, aliases, ordinals)] [HAVING p] [ORDER BY names, aliases, ordinals or expressions
 * [ASC|DESC] [NULLS FIRST|LAST]] [LIMIT n] [OFFSET m]}; predicates {@code = <> < <= > >= [NOT] IN [NOT] BETWEEN AND OR
 * NOT}; {@code + - * /}; SUM, COUNT, COUNT(*), MIN, MAX, AVG over numeric expressions of measures, INT dimensions and
 * lookup columns. Anything else is refused with INVALID_INPUT naming the construct and its line and column; parse
 * errors are SYNTAX; unknown or ambiguous names and type mismatches are BIND. Identifiers are case-insensitive.
 *
 * <p>Stateless; thread-safe.
 */
public final class SqlBinder {

    /** Where table schemas (and, where known, row counts) come from. */
    @FunctionalInterface
    public interface Catalog {
        Optional<TableSchema> schema(String table);

        /**
         * The table's rows, or -1 when unknown: a FROM list of tables ({@code FROM a, b, c WHERE ...}) takes the
         * largest as its fact table.
         */
        default long rows(String table) {
            return -1;
        }

        /**
         * Whether column {@code column} of the table is known to hold some value twice (so it cannot be the key a
         * dimension is joined by); false where that is not known. A FROM list of tables passes over a fact table
         * whose joins would take such a key.
         */
        default boolean repeats(String table, String column) {
            return false;
        }

        /**
         * Whether column {@code column} of the table is known to hold every value once and no NULL (a key a dimension
         * can be joined by as it is); false where that is not known.
         */
        default boolean unique(String table, String column) {
            return false;
        }
    }

    /** The deepest expression nesting bound (DuckDB's default max_expression_depth); AND/OR chains and runs of NOT
     * are flattened first and do not count per term. */
    public static final int MAX_DEPTH = 1000;

    private SqlBinder() {}

    /** Parses and binds {@code sql}. */
    public static LogicalQuery bind(String sql, Catalog catalog) {
        return bind(sql, catalog, StatementClock.wallClockNow());
    }

    /** Parses and binds {@code sql}, its clock functions reading {@code wallClock} ({@link #parse(String, java.time.LocalDateTime)}). */
    public static LogicalQuery bind(String sql, Catalog catalog, java.time.LocalDateTime wallClock) {
        java.util.Objects.requireNonNull(wallClock, "wallClock must not be null");
        if (sql != null && sql.length() > SqlTextParser.BIG_STACK_TEXT) {
            return SqlTextParser.onBigStack(() -> new QueryBinder(catalog).bind(parse(sql, wallClock)));
        }
        return new QueryBinder(catalog).bind(parse(sql, wallClock));
    }

    /** Binds an already parsed statement (one whose subqueries were replaced by tables or values). */
    public static LogicalQuery bind(SqlNode root, Catalog catalog) {
        return new QueryBinder(catalog).bind(root);
    }

    /** Loads and initialises the parser's classes (about half a second the first time), so the first query does not
     * pay for it. Safe to call from any thread; failures are ignored. */
    public static void warmUp() {
        try {
            parse("SELECT k, SUM(v) FROM t JOIN l USING (k) WHERE d BETWEEN DATE '2025-01-01' AND DATE '2025-02-01'"
                    + " GROUP BY k ORDER BY 2 DESC LIMIT 1");
        } catch (RuntimeException e) {
            // a warm-up only
        }
    }

    /**
     * Parses one query (a trailing semicolon is allowed), its schema-qualified names replaced by the catalog's
     * ({@code public.trades} by {@code trades}: {@link io.numacube.engine.schema.TableNames}).
     */
    public static SqlNode parse(String sql) {
        return QualifiedNames.unqualify(SqlTextParser.parse(sql));
    }

    /**
     * As {@link #parse(String)}, its clock functions ({@code now()}, {@code current_date}: {@link StatementClock})
     * reading {@code wallClock} rather than the clock: a write run again later sees the instant it saw first.
     */
    public static SqlNode parse(String sql, java.time.LocalDateTime wallClock) {
        return QualifiedNames.unqualify(SqlTextParser.parse(sql, wallClock));
    }
}
