package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.storage.FactTable;

/**
 * The physical plan of one aggregation query, produced by {@link QueryCompiler} and read by every worker: which rows
 * pass ({@link RowFilter}), which group each row falls in ({@link GroupKeySpace}), what every group accumulates
 * ({@link Accumulator}s, the sink side of {@link AggregationState}), how each SQL aggregate is finished from those
 * accumulators, including post-aggregation steps such as a lookup factor per join key ({@link FinalAggregate}, the
 * finalize side of {@link ResultFinalizer}), which columns a morsel scan reads ({@link ScanColumns}) and how many
 * scratch vectors a task needs ({@link ScratchLayout}).
 *
 * <p>Invariants: every accumulator index in {@code aggregates} is a valid index of {@code accumulators}; every column
 * an accumulator, the filter or the group keys read is in {@code scan}. Immutable after construction (its arrays are
 * never written); shared by all workers of the query.
 *
 * @param logical      the bound query: select list, HAVING, ORDER BY, LIMIT are finished from it
 * @param fact         the table scanned
 * @param filter       the WHERE clause (and the inner join's existence test) as code masks and a residual predicate
 * @param keys         the group-key columns and their mixed-radix key space
 * @param accumulators the per-group accumulators every aggregation state keeps, in slot order
 * @param aggregates   one per SQL aggregate of {@code logical}, in the same order
 * @param scan         the columns read per morsel and their widths
 * @param scratch      the scratch slots the filter's and accumulators' batch expressions number into
 * @param description  a one-line account of the plan for EXPLAIN-like output and statistics
 * @param postColumn   the fact column whose codes post-processed aggregates are kept by (the factor's join key), or -1
 */
record PhysicalPlan(
        LogicalQuery logical,
        FactTable fact,
        RowFilter filter,
        GroupKeySpace keys,
        Accumulator[] accumulators,
        FinalAggregate[] aggregates,
        ScanColumns scan,
        ScratchLayout scratch,
        String description,
        int postColumn) {}
