package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * The select list of a query result as it is built, one {@link OutputColumn} per output: its name, its type (DECIMAL
 * where the expression has a scale or a precision, a DECIMAL(p,0) keeping its declared precision), scale, precision,
 * values and null flags. Shared by the aggregation finalizer and the projection executor.
 *
 * <p>Invariants: every column holds the same number of rows; a column's values are its array from {@link #column},
 * filled by the caller before {@link #result}. Not thread-safe: one per result.
 */
final class OutputColumns {

    private final List<LogicalQuery.Output> outputs;
    private final int rows;
    private final List<String> names = new ArrayList<>();
    private final List<ColumnType> types = new ArrayList<>();
    private final Object[] columns;
    private final boolean[][] nulls;
    private final int[] scales;
    private final int[] precisions;

    OutputColumns(List<LogicalQuery.Output> outputs, int rows) {
        this.outputs = outputs;
        this.rows = rows;
        this.columns = new Object[outputs.size()];
        this.nulls = new boolean[outputs.size()][];
        this.scales = new int[outputs.size()];
        this.precisions = new int[outputs.size()];
    }

    /** Declares output {@code c} (the next, in order) with values of type {@code t}; returns its empty values array. */
    Object column(int c, ColumnType t) {
        Expr e = outputs.get(c).expr();
        names.add(outputs.get(c).name());
        // a DECIMAL(p,0) column has scale 0, as an integer has, and its declared precision
        types.add(e.scale() > 0 || e.precision() > 0 ? ColumnType.DECIMAL : t);
        scales[c] = e.scale();
        precisions[c] = e.declaredPrecision();
        Object col = OutputColumn.of(t, rows);
        columns[c] = col;
        return col;
    }

    /** Sets output {@code c}'s null flags (null: no value is NULL). */
    void nulls(int c, boolean[] flags) {
        nulls[c] = flags;
    }

    /** The result of the filled columns. */
    QueryResult result(QueryStats stats) {
        return new QueryResult(names, types, scales, precisions, columns, nulls, rows, stats);
    }
}
