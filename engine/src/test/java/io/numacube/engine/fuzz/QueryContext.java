package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the generators of one query share: its random stream, the data set (for literals), the joined dimension
 * tables ({@link JoinPlan}), whether NULL constructs may be used, and the constructs used so far (tags such as
 * {@code where:in} or {@code agg:avg}, reported with mismatches). One per query; not thread-safe.
 */
final class QueryContext {

    final Random rnd;
    final FuzzDataset data;
    final JoinPlan join;
    final boolean nulls;
    final Set<String> tags = new TreeSet<>();

    /**
     * Whether {@link #columns} may return the attributes of LEFT-joined tables (they are group keys too, drawn apart).
     * Was off outside projections while reading a LEFT-joined attribute row by row, where a fact row had no partner,
     * failed (the scan did not read the fact column it hangs from); fixed, so on.
     */
    boolean leftAttributes = true;

    QueryContext(Random rnd, FuzzDataset data, JoinPlan join, boolean nulls) {
        this.rnd = rnd;
        this.data = data;
        this.join = join;
        this.nulls = nulls;
    }

    /** The FROM clause. */
    String from() {
        return join.from(data.shape());
    }

    /** How to name a column: a join key is qualified under ON, where DuckDB finds a bare name ambiguous. */
    String ref(String column) {
        return join.ref(column, data.shape());
    }

    /** Columns a query may read of the given types: the fact's, and the lookup's attributes when joined. */
    List<String> columns(Set<ColumnType> types) {
        List<String> out = new ArrayList<>();
        for (String c : FactColumns.ALL) {
            if (types.contains(FactColumns.type(c))) {
                out.add(c);
            }
        }
        List<String> left = leftAttributes ? List.of() : join.leftAttributes();
        for (String c : join.attributes()) {
            if (types.contains(FactColumns.type(c)) && !left.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    <T> T pick(List<T> from) {
        return from.get(rnd.nextInt(from.size()));
    }

    boolean chance(int percent) {
        return rnd.nextInt(100) < percent;
    }

    /** A literal of column {@code column}'s type: mostly a value it holds, sometimes one it does not. */
    String literalFor(String column) {
        ColumnType type = FactColumns.type(column);
        if (type == ColumnType.TIMESTAMP) {
            return SqlLiterals.of(type, ValuePools.timestamp(rnd));
        }
        if (type == ColumnType.DECIMAL) {
            return decimalLiteral(column);
        }
        if (!type.isDimension()) {
            return numericLiteral(type == ColumnType.LONG || column.equals("tier"));
        }
        List<Object> pool = data.pool(column);
        if (type == ColumnType.BOOLEAN) {
            // either value, held or not (a pool may hold one): no boolean is missing from every column
            return SqlLiterals.of(type, (long) rnd.nextInt(2));
        }
        return SqlLiterals.of(type, chance(10) ? SqlLiterals.missing(type) : pick(pool));
    }

    /**
     * A literal for DECIMAL column {@code column}, written as DuckDB reads an exact DECIMAL: one of its values, one with
     * a digit more than its scale (that no row holds), or an integer.
     */
    String decimalLiteral(String column) {
        int scale = column.equals("n0") ? 2 : 3;
        long raw = ValuePools.longValue(column, rnd);
        return switch (rnd.nextInt(4)) {
            case 0 ->
                java.math.BigDecimal.valueOf(raw * 10 + (rnd.nextInt(9) + 1) * (raw < 0 ? -1 : 1), scale + 1)
                        .toPlainString();
            case 1 -> String.valueOf(raw / (column.equals("n0") ? 100 : 1000));
            default -> java.math.BigDecimal.valueOf(raw, scale).toPlainString();
        };
    }

    /** A numeric literal: an integer (BIGINT) or a double with an exponent, of varied magnitude. */
    String numericLiteral(boolean integer) {
        if (integer) {
            return switch (rnd.nextInt(4)) {
                case 0 -> String.valueOf(rnd.nextInt(21) - 10);
                case 1 -> String.valueOf(rnd.nextInt(2_000_001) - 1_000_000);
                case 2 -> String.valueOf(rnd.nextLong() >> 23);
                default -> String.valueOf(rnd.nextInt(2001) - 1000);
            };
        }
        return switch (rnd.nextInt(3)) {
            case 0 -> SqlLiterals.ofDouble((rnd.nextInt(16_001) - 8000) / 8.0);
            case 1 -> SqlLiterals.ofDouble((rnd.nextBoolean() ? 1 : -1) * Math.pow(10, -3 + rnd.nextInt(18)));
            default -> SqlLiterals.ofDouble(rnd.nextInt(9) / 4.0);
        };
    }
}
