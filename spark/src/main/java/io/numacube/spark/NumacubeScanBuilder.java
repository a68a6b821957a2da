package io.numacube.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Avg;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownOffset;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownTopN;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds a scan of one numacube table, taking what the shards can do for Spark: the required columns, the V2 predicates
 * {@link SqlFilters} translates (the rest Spark applies after the scan), and aggregates: GROUP BY columns with COUNT(*),
 * COUNT, SUM, MIN and MAX of a column or of {@code + - *} over columns and literals ({@link
 * PushedArithmetic}), pushed as partial aggregates that each shard computes over its rows and Spark merges (so AVG
 * arrives as SUM and COUNT, which Spark divides); complete, AVG included, when the grouping holds the shard key or one
 * server answers ({@link #supportCompletePushDown}). DISTINCT aggregates, other expressions, AVG of DECIMAL and a
 * partial SUM of a DECIMAL narrower than the shards' stay with Spark ({@link #pushable}). A LIMIT, and a top-N (ORDER BY columns, or aggregates of a
 * complete push-down, then LIMIT), go to each shard as its own LIMIT, so no shard sends more than N rows; over several
 * shards Spark still applies the final limit and sort over the shards' answers ({@link #isPartiallyPushed}), where one
 * server answers (a table held whole) its LIMIT is final. An OFFSET is pushed only where one server answers ({@link
 * #pushOffset}). Spark offers them only when no filter is left for it to apply after the scan, and never over a partial
 * aggregate, which Spark finishes above the scan. A scan of rows (no aggregate, LIMIT or OFFSET pushed) is split into
 * ranges of a column where the read's options ask ({@link ScanSplit}); the small answers of the rest are not. Used by
 * one thread while Spark plans.
 */
final class NumacubeScanBuilder
        implements ScanBuilder,
                SupportsPushDownRequiredColumns,
                SupportsPushDownV2Filters,
                SupportsPushDownAggregates,
                SupportsPushDownLimit,
                SupportsPushDownTopN,
                SupportsPushDownOffset {

    /** The digits of a DECIMAL the shards send: 64-bit unscaled values. */
    static final int WIRE_DECIMAL_PRECISION = 18;

    private final ReadOptions options;
    private final TableLayout layout;
    private final ScanSplit split;
    private StructType schema;
    private final List<String> where = new ArrayList<>();
    private Predicate[] pushed = new Predicate[0];
    private PushedQuery aggregate;
    private boolean completeAggregate;
    private List<String> order = List.of();
    private int limit = -1;
    private int offset;

    NumacubeScanBuilder(ReadOptions options, TableLayout layout, ScanSplit split) {
        this.options = options;
        this.layout = layout;
        this.split = split;
        this.schema = layout.schema();
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        List<Predicate> kept = new ArrayList<>();
        List<Predicate> left = new ArrayList<>();
        for (Predicate p : predicates) {
            var sql = SqlFilters.sql(p);
            if (sql.isPresent()) {
                where.add(sql.get());
                kept.add(p);
            } else {
                left.add(p);
            }
        }
        pushed = kept.toArray(new Predicate[0]);
        return left.toArray(new Predicate[0]);
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.clone();
    }

    @Override
    public void pruneColumns(StructType required) {
        if (aggregate == null) {
            schema = required;
        }
    }

    /**
     * Whether each shard's answer is final: when every group lies on one shard (the grouping columns hold the shard
     * key) or one server answers (a table held whole), Spark needs no merge, and AVG is pushed as AVG.
     */
    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        if (layout.sharded()) {
            boolean byKey = false;
            for (Expression e : aggregation.groupByExpressions()) {
                StructField f = field(e);
                byKey |= f != null && f.name().equalsIgnoreCase(layout.shardKey());
            }
            if (!byKey) {
                return false;
            }
        }
        for (AggregateFunc a : aggregation.aggregateExpressions()) {
            if (aggregate(a, "check", new ArrayList<>(), true) == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        boolean complete = supportCompletePushDown(aggregation);
        List<String> select = new ArrayList<>();
        List<String> groupBy = new ArrayList<>();
        List<StructField> fields = new ArrayList<>();
        for (Expression e : aggregation.groupByExpressions()) {
            StructField f = field(e);
            if (f == null) {
                return false;
            }
            groupBy.add(SqlFilters.column(f.name()));
            select.add(SqlFilters.column(f.name()));
            fields.add(f);
        }
        int i = 0;
        for (AggregateFunc a : aggregation.aggregateExpressions()) {
            StructField f = aggregate(a, "agg_" + i++, select, complete);
            if (f == null) {
                return false;
            }
            fields.add(f);
        }
        aggregate = new PushedQuery(layout.table(), select, List.copyOf(where), groupBy, true);
        completeAggregate = complete;
        schema = DataTypes.createStructType(fields);
        return true;
    }

    /**
     * The output field of one aggregate, its SQL added to {@code select}; null when it stays with Spark. AVG only when
     * {@code complete}: averages of shards do not merge.
     */
    private StructField aggregate(AggregateFunc a, String name, List<String> select, boolean complete) {
        if (a instanceof CountStar) {
            select.add("COUNT(*)");
            return DataTypes.createStructField(name, DataTypes.LongType, false);
        }
        Expression column;
        String function;
        switch (a) {
            case Count c
            when !c.isDistinct() -> {
                column = c.column();
                function = "COUNT";
            }
            case Sum s
            when !s.isDistinct() -> {
                column = s.column();
                function = "SUM";
            }
            case Min m -> {
                column = m.column();
                function = "MIN";
            }
            case Max m -> {
                column = m.column();
                function = "MAX";
            }
            case Avg v
            when complete && !v.isDistinct() -> {
                column = v.column();
                function = "AVG";
            }
            default -> {
                return null;
            }
        }
        StructField f = field(column);
        PushedArithmetic argument = f != null
                ? new PushedArithmetic(SqlFilters.column(f.name()), f.dataType())
                : PushedArithmetic.of(column, layout.schema());
        if (argument == null || !pushable(function, argument.type(), complete)) {
            return null;
        }
        DataType type = switch (function) {
            case "COUNT" -> DataTypes.LongType;
            case "AVG" -> DataTypes.DoubleType;
            case "SUM" ->
                argument.type() instanceof DecimalType d
                        ? DataTypes.createDecimalType(WIRE_DECIMAL_PRECISION, d.scale())
                        : argument.type();
            default -> argument.type();
        };
        select.add(function + "(" + argument.sql() + ")");
        return DataTypes.createStructField(name, type, true);
    }

    /**
     * Whether the shards may compute {@code function} of an argument of {@code type}. SUM and AVG of BIGINT and
     * DOUBLE; SUM of DECIMAL where the shards' sum is final ({@code complete}), or where the argument's precision is
     * at least the shards' ({@value #WIRE_DECIMAL_PRECISION}): Spark casts each shard's partial sum of a DECIMAL to the
     * argument's type before adding them, which a narrower type could not hold. AVG of DECIMAL stays with Spark (its
     * exact decimal average, where a shard's is a DOUBLE). COUNT, MIN and MAX of anything.
     */
    private static boolean pushable(String function, DataType type, boolean complete) {
        boolean plainNumber = type == DataTypes.LongType || type == DataTypes.DoubleType;
        return switch (function) {
            case "AVG" -> plainNumber;
            case "SUM" ->
                plainNumber || type instanceof DecimalType d && (complete || d.precision() >= WIRE_DECIMAL_PRECISION);
            default -> true;
        };
    }

    /** The table's field a plain column reference names, or null for anything else. */
    private StructField field(Expression e) {
        if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
            return null;
        }
        for (StructField f : layout.schema().fields()) {
            if (f.name().equals(r.fieldNames()[0])) {
                return f;
            }
        }
        return null;
    }

    /** Each shard returns at most {@code rows} rows; refused over a partial aggregate (Spark finishes it). */
    @Override
    public boolean pushLimit(int rows) {
        if (aggregate != null && !completeAggregate) {
            return false;
        }
        limit = rows;
        return true;
    }

    /**
     * Each shard returns its first {@code rows} rows by {@code orders}, which hold each top-N of the union; refused
     * for a sort key that is not a column (or, over a pushed aggregate, a grouping column or an aggregate it can
     * compute), or is BOOLEAN, and over a partial aggregate.
     */
    @Override
    public boolean pushTopN(SortOrder[] orders, int rows) {
        if (aggregate != null && !completeAggregate) {
            return false;
        }
        List<String> keys = new ArrayList<>();
        for (SortOrder o : orders) {
            String key = sortKey(o.expression());
            if (key == null) {
                return false;
            }
            keys.add(key
                    + (o.direction() == SortDirection.ASCENDING ? " ASC" : " DESC")
                    + (o.nullOrdering() == NullOrdering.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST"));
        }
        order = List.copyOf(keys);
        limit = rows;
        return true;
    }

    /**
     * Over several shards their answers are each cut to N rows, and Spark applies the final LIMIT (and sort) over
     * their union; where one server answers the whole table, its LIMIT (and ORDER BY) is the final one.
     */
    @Override
    public boolean isPartiallyPushed() {
        return layout.sharded();
    }

    /**
     * Skips the first {@code rows} rows, only where one server answers the whole table (a table held whole): over
     * several shards no shard knows how many of the rows before its own lie on the others, so Spark skips them in the
     * union (each shard sending its first LIMIT + OFFSET rows). Spark pushes the LIMIT first, as LIMIT + OFFSET rows
     * (and only when it is final), then this: the server's SQL skips {@code rows} and returns the LIMIT's remainder.
     */
    @Override
    public boolean pushOffset(int rows) {
        if (layout.sharded() || aggregate != null && !completeAggregate) {
            return false;
        }
        if (limit >= 0) {
            limit = Math.max(0, limit - rows);
        }
        offset = rows;
        return true;
    }

    /** The SQL of a sort key the shards order by as Spark does, or null when the sort stays with Spark. */
    private String sortKey(Expression e) {
        if (e instanceof AggregateFunc a) {
            List<String> sql = new ArrayList<>();
            StructField f = aggregate == null ? null : aggregate(a, "sort", sql, true);
            return f == null || f.dataType() == DataTypes.BooleanType ? null : sql.getFirst();
        }
        StructField f = field(e);
        if (f == null || f.dataType() == DataTypes.BooleanType) {
            return null;
        }
        String column = SqlFilters.column(f.name());
        return aggregate == null || aggregate.groupBy().contains(column) ? column : null;
    }

    @Override
    public Scan build() {
        PushedQuery query = aggregate != null
                ? aggregate
                : new PushedQuery(
                        layout.table(),
                        java.util.Arrays.stream(schema.fieldNames())
                                .map(SqlFilters::column)
                                .toList(),
                        List.copyOf(where),
                        List.of(),
                        false);
        if (limit >= 0) {
            query = query.limited(order, limit);
        }
        if (offset > 0) {
            query = query.offset(offset);
        }
        boolean rowScan = aggregate == null && limit < 0 && offset == 0;
        return new NumacubeScan(options, layout, query, schema, rowScan ? split : null);
    }
}
