package io.numacube.engine.fuzz;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Draws the dimension tables of a data set: lookup {@code d} (keyed by the shape's lookup key), lookup {@code e} (the
 * second key, a star) and snowflake {@code r} (keyed by {@code d.region}). Each holds most of its key's values (some
 * rows find no partner), plus a key no row of its parent holds; its text, INT and DATE attributes are drawn from
 * their pools (NULL one time in ten when the data has NULLs), DOUBLE ones are eighths, LONG ones small integers.
 * Stateless; thread-safe.
 */
final class DimensionTables {

    private DimensionTables() {}

    /** {@code d}, {@code e} and {@code r}, in that order. */
    static List<TableStaging> generate(DataShape shape, Map<String, List<Object>> pools, Random rnd) {
        boolean nulls = false;
        for (double f : shape.nullFraction()) {
            nulls |= f > 0;
        }
        String key = shape.lookupKey();
        String key2 = shape.lookup2Key();
        return List.of(
                table(FactColumns.lookup(key), pools.get(key), pools, nulls, rnd),
                table(FactColumns.lookup2(key2), pools.get(key2), pools, nulls, rnd),
                table(FactColumns.SNOWFLAKE, pools.get("region"), pools, nulls, rnd));
    }

    private static TableStaging table(
            TableSchema schema, List<Object> keyPool, Map<String, List<Object>> pools, boolean nulls, Random rnd) {
        TableStaging s = new TableStaging(schema);
        ColumnType keyType = schema.column(0).type();
        List<Object> keys = new ArrayList<>();
        for (Object k : keyPool) {
            if (rnd.nextInt(7) != 0) {
                keys.add(k);
            }
        }
        keys.add(SqlLiterals.missing(keyType));
        for (Object k : keys) {
            DataGenerator.setDimension(s, 0, k);
            for (int c = 1; c < schema.columns().size(); c++) {
                String col = schema.column(c).name();
                switch (schema.column(c).type()) {
                    case DOUBLE -> s.setDouble(c, ValuePools.rate(rnd));
                    case LONG -> s.setLong(c, rnd.nextInt(2001) - 1000);
                    default -> {
                        List<Object> pool = pools.get(col);
                        if (nulls && rnd.nextInt(10) == 0) {
                            s.setNull(c);
                        } else {
                            DataGenerator.setDimension(s, c, pool.get(rnd.nextInt(pool.size())));
                        }
                    }
                }
            }
            s.endRow();
        }
        return s;
    }
}
