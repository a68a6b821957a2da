package io.numacube.engine.fuzz;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Draws a {@link FuzzDataset} from a {@link DataShape}: dimension values from per-column pools with a skewed
 * distribution, measures from {@link ValuePools}, NULLs with the shape's per-column fraction, and the dimension
 * tables of {@link DimensionTables}. The same shape gives the same rows. Stateless; thread-safe.
 */
final class DataGenerator {

    private DataGenerator() {}

    static FuzzDataset generate(DataShape shape) {
        Random rnd = new Random(shape.seed() ^ 0xDA7AL);
        Map<String, List<Object>> pools = new HashMap<>();
        for (int d = 0; d < FactColumns.DIMENSIONS.size(); d++) {
            String col = FactColumns.DIMENSIONS.get(d);
            pools.put(col, ValuePools.distinct(col, shape.cardinality()[d], rnd));
        }
        pools.put("region", ValuePools.distinct("region", 1 + rnd.nextInt(6), rnd));
        pools.put("tier", ValuePools.distinct("tier", 1 + rnd.nextInt(4), rnd));
        pools.put("grade", ValuePools.distinct("grade", 1 + rnd.nextInt(12), rnd));
        pools.put("lvl", ValuePools.distinct("lvl", 1 + rnd.nextInt(5), rnd));
        pools.put("opened", ValuePools.distinct("opened", 1 + rnd.nextInt(8), rnd));
        pools.put("zone", ValuePools.distinct("zone", 1 + rnd.nextInt(3), rnd));
        pools.put("zrank", ValuePools.distinct("zrank", 1 + rnd.nextInt(3), rnd));
        TableStaging fact = fact(shape, pools, rnd);
        return new FuzzDataset(shape, fact, DimensionTables.generate(shape, pools, rnd), pools);
    }

    private static TableStaging fact(DataShape shape, Map<String, List<Object>> pools, Random rnd) {
        TableStaging s = new TableStaging(FactColumns.FACT);
        for (int r = 0; r < shape.rows(); r++) {
            for (int c = 0; c < FactColumns.ALL.size(); c++) {
                String col = FactColumns.ALL.get(c);
                if (rnd.nextDouble() < shape.nullFraction()[c]) {
                    s.setNull(c);
                } else if (pools.containsKey(col)) {
                    List<Object> pool = pools.get(col);
                    setDimension(s, c, pool.get((int) (pool.size() * Math.pow(rnd.nextDouble(), shape.skew()))));
                } else if (FactColumns.type(col) == ColumnType.DOUBLE) {
                    s.setDouble(c, ValuePools.doubleValue(col, rnd));
                } else {
                    s.setLong(c, ValuePools.longValue(col, rnd));
                }
            }
            s.endRow();
        }
        return s;
    }

    static void setDimension(TableStaging s, int column, Object value) {
        switch (s.schema().column(column).type()) {
            case STRING -> s.setString(column, (String) value);
            case INT -> s.setLong(column, (Long) value);
            case DATE -> s.setDate(column, (int) (long) (Long) value);
            case BOOLEAN -> s.setBoolean(column, (Long) value != 0);
            default -> throw new IllegalArgumentException("not a dimension: column=" + column);
        }
    }
}
