package io.numacube.engine.fuzz;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Draws a {@link FuzzDataset} from a {@link DataShape}: dimension values from per-column pools with a skewed
 * distribution, measures from {@link ValuePools}, NULLs with the shape's per-column fraction, and a lookup table
 * holding most of the key's values (some fact rows find no partner) plus keys the fact table lacks. The same shape
 * gives the same rows. Stateless; thread-safe.
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
        TableStaging fact = fact(shape, pools, rnd);
        TableStaging lookup = lookup(shape, pools, rnd);
        return new FuzzDataset(shape, fact, lookup, pools);
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

    private static TableStaging lookup(DataShape shape, Map<String, List<Object>> pools, Random rnd) {
        String key = shape.lookupKey();
        TableStaging s = new TableStaging(FactColumns.lookup(key));
        boolean nulls = shape.nullFraction().length > 0 && sum(shape.nullFraction()) > 0;
        List<Object> keys = new java.util.ArrayList<>();
        for (Object k : pools.get(key)) {
            if (rnd.nextInt(7) != 0) {
                keys.add(k);
            }
        }
        keys.add(FactColumns.type(key) == ColumnType.STRING ? "zz-not-in-fact" : (Object) 123_456_789L);
        for (Object k : keys) {
            setDimension(s, 0, k);
            s.setDouble(1, ValuePools.rate(rnd));
            s.setLong(2, rnd.nextInt(2001) - 1000);
            List<Object> regions = pools.get("region");
            setOrNull(s, 3, regions.get(rnd.nextInt(regions.size())), nulls && rnd.nextInt(10) == 0);
            List<Object> tiers = pools.get("tier");
            setOrNull(s, 4, tiers.get(rnd.nextInt(tiers.size())), nulls && rnd.nextInt(10) == 0);
            s.endRow();
        }
        return s;
    }

    private static void setOrNull(TableStaging s, int column, Object value, boolean isNull) {
        if (isNull) {
            s.setNull(column);
        } else {
            setDimension(s, column, value);
        }
    }

    private static void setDimension(TableStaging s, int column, Object value) {
        switch (s.schema().column(column).type()) {
            case STRING -> s.setString(column, (String) value);
            case INT -> s.setLong(column, (Long) value);
            case DATE -> s.setDate(column, (int) (long) (Long) value);
            default -> throw new IllegalArgumentException("not a dimension: column=" + column);
        }
    }

    private static double sum(double[] values) {
        double t = 0;
        for (double v : values) {
            t += v;
        }
        return t;
    }
}
