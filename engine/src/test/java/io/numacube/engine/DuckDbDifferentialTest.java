package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random schemas, random data and random aggregation queries, answered by numacube (under random placement modes,
 * partitionings, morsel sizes, simulated node counts and stealing settings) and by DuckDB. Measures are multiples of
 * 1/8 small enough that every sum and product of sums is exact in doubles, so sums can be compared strictly (1e-9
 * relative, which only divisions use). The seed of a failing case is in the message.
 */
class DuckDbDifferentialTest {

    private static final int DATASETS = 48;
    private static final int QUERIES_PER_DATASET = 12;

    private static DuckDb duck;

    @BeforeAll
    static void openDuckDb() throws Exception {
        duck = new DuckDb();
    }

    @AfterAll
    static void closeDuckDb() throws Exception {
        duck.close();
    }

    /** A generated table pair. */
    record Dataset(
            TableSchema fact,
            List<Object[]> factRows,
            List<List<Object>> dimValues,
            TableSchema lookup,
            List<Object[]> lookupRows,
            String joinKey) {}

    @Test
    void randomQueriesGiveDuckDbsAnswers() throws Exception {
        int queries = 0;
        for (int seed = 0; seed < DATASETS; seed++) {
            Random rnd = new Random(1000L + seed);
            queries += checkAgainstDuckDb(seed, rnd, dataset(rnd, seed, false), List.of());
        }
        org.junit.jupiter.api.Assertions.assertEquals(DATASETS * QUERIES_PER_DATASET, queries);
    }

    /** Two dimensions with more than 65,536 distinct values in the rows, so their dictionary codes are 4 bytes wide. */
    @Test
    void wideDictionaryCodesGiveDuckDbsAnswers() throws Exception {
        for (int seed = 0; seed < 2; seed++) {
            Random rnd = new Random(5000L + seed);
            Dataset ds = dataset(rnd, seed, true);
            for (int d = 0; d < 2; d++) {
                int column = d;
                long distinct =
                        ds.factRows.stream().map(r -> r[column]).distinct().count();
                org.junit.jupiter.api.Assertions.assertTrue(
                        distinct > 65_536,
                        () -> "d" + column + " has only " + distinct + " distinct values: its codes are not 4 bytes");
            }
            List<GeneratedQuery> fixed = wideQueries(ds);
            org.junit.jupiter.api.Assertions.assertEquals(
                    fixed.size() + QUERIES_PER_DATASET, checkAgainstDuckDb(seed, rnd, ds, fixed));
        }
    }

    /**
     * Shapes the random generator rarely makes, aimed at 4-byte codes: the fused one-key sums on each wide key, both
     * wide keys at once (a hash group space), and code masks and ranges over wide dimensions.
     */
    private static List<GeneratedQuery> wideQueries(Dataset ds) {
        List<Object> d0 = ds.dimValues.get(0);
        List<Object> d1 = ds.dimValues.get(1);
        String in = d0.stream()
                .skip(70_000)
                .limit(5)
                .map(v -> literal(ColumnType.STRING, v))
                .collect(java.util.stream.Collectors.joining(", "));
        long lo = Math.min((Long) d1.get(66_000), (Long) d1.get(99_000));
        long hi = Math.max((Long) d1.get(66_000), (Long) d1.get(99_000));
        return List.of(
                new GeneratedQuery("SELECT d0, SUM(m0) FROM f GROUP BY d0", 1, new boolean[] {true, false}, false),
                new GeneratedQuery(
                        "SELECT d1, SUM(m0), AVG(m0), COUNT(*) FROM f GROUP BY d1",
                        1,
                        new boolean[] {true, false, false, true},
                        false),
                new GeneratedQuery(
                        "SELECT d0, d1, SUM(m0), COUNT(*) FROM f GROUP BY d0, d1",
                        2,
                        new boolean[] {true, true, false, true},
                        false),
                new GeneratedQuery(
                        "SELECT d1, MIN(m0), MAX(m0) FROM f WHERE d0 IN (" + in + ") GROUP BY d1",
                        1,
                        new boolean[] {true, true, true},
                        false),
                new GeneratedQuery(
                        "SELECT d0, COUNT(*), SUM(m0) FROM f WHERE d1 BETWEEN " + lo + " AND " + hi
                                + " GROUP BY d0 ORDER BY 2 DESC, 1 LIMIT 50",
                        1,
                        new boolean[] {true, true, false},
                        true));
    }

    /**
     * Loads {@code ds} into DuckDB and a cube, runs the {@code fixed} queries and then random ones on both, asserts the
     * same answers; returns how many ran.
     */
    private int checkAgainstDuckDb(int seed, Random rnd, Dataset ds, List<GeneratedQuery> fixed) throws Exception {
        int queries = 0;
        CubeOptions options = options(rnd, ds);
        duck.load(ds.fact, ds.factRows);
        if (ds.lookup != null) {
            duck.load(ds.lookup, ds.lookupRows);
        }
        try (Cube cube = Cube.open(options)) {
            cube.loadTable(staging(ds.fact, ds.factRows));
            if (ds.lookup != null) {
                cube.loadTable(staging(ds.lookup, ds.lookupRows));
            }
            for (int i = 0; i < fixed.size() + QUERIES_PER_DATASET; i++) {
                GeneratedQuery q = i < fixed.size() ? fixed.get(i) : query(rnd, ds);
                String context =
                        "seed=" + seed + " options=" + options + " rows=" + ds.factRows.size() + "\nsql=" + q.sql;
                QueryResult ours;
                try {
                    ours = cube.query(q.sql);
                } catch (RuntimeException e) {
                    throw new AssertionError(context + "\nnumacube failed: " + e, e);
                }
                ResultComparator.assertSame(context, ours, duck.query(q.sql), q.keys, q.exact, q.ordered, 1e-9);
                queries++;
            }
        }
        return queries;
    }

    static TableStaging staging(TableSchema schema, List<Object[]> rows) {
        TableStaging s = new TableStaging(schema);
        for (Object[] row : rows) {
            for (int c = 0; c < schema.size(); c++) {
                switch (schema.column(c).type()) {
                    case STRING -> s.setString(c, (String) row[c]);
                    case INT, LONG -> s.setLong(c, (Long) row[c]);
                    case DATE -> s.setDate(c, (int) (long) (Long) row[c]);
                    case DOUBLE -> s.setDouble(c, (Double) row[c]);
                }
            }
            s.endRow();
        }
        return s;
    }

    private static final int[] CARDINALITIES = {1, 2, 5, 40, 300, 3000};
    /** Values of each wide dimension: 300,000 uniform draws from them hit about 95 % (well over 65,536). */
    private static final int WIDE_CARDINALITY = 100_000;

    private static final int WIDE_ROWS = 300_000;

    /** {@code wide}: dimensions d0 (STRING) and d1 (INT) take {@value #WIDE_CARDINALITY} values, drawn uniformly. */
    private static Dataset dataset(Random rnd, int seed, boolean wide) {
        int dims = wide ? 2 + rnd.nextInt(2) : 1 + rnd.nextInt(4);
        int doubles = 1 + rnd.nextInt(3);
        boolean longMeasure = rnd.nextBoolean();
        List<ColumnSpec> cols = new ArrayList<>();
        List<List<Object>> values = new ArrayList<>();
        for (int d = 0; d < dims; d++) {
            ColumnType t = d == 0
                    ? ColumnType.STRING
                    : wide && d == 1
                            ? ColumnType.INT
                            : List.of(ColumnType.STRING, ColumnType.INT, ColumnType.DATE)
                                    .get(rnd.nextInt(3));
            int card = wide && d < 2 ? WIDE_CARDINALITY : CARDINALITIES[rnd.nextInt(CARDINALITIES.length)];
            List<Object> vals = new ArrayList<>();
            java.util.Set<Object> seen = new java.util.HashSet<>();
            while (vals.size() < card) {
                Object v = switch (t) {
                    case STRING ->
                        (rnd.nextInt(20) == 0 ? "o'k" : rnd.nextBoolean() ? "A" : "b") + rnd.nextInt(card * 3);
                    case INT -> (long) rnd.nextInt(2_000_001) - 1_000_000;
                    default -> LocalDate.of(2020, 1, 1).toEpochDay() + rnd.nextInt(20000);
                };
                if (seen.add(v)) {
                    vals.add(v);
                }
            }
            cols.add(ColumnSpec.of("d" + d, t));
            values.add(vals);
        }
        for (int m = 0; m < doubles; m++) {
            cols.add(ColumnSpec.of("m" + m, ColumnType.DOUBLE));
        }
        if (longMeasure) {
            cols.add(ColumnSpec.of("l0", ColumnType.LONG));
        }
        TableSchema fact = new TableSchema("f", cols);
        int shape = rnd.nextInt(10);
        int rows = wide ? WIDE_ROWS : shape == 0 ? 0 : shape == 1 ? 1 : rnd.nextInt(6000);
        List<Object[]> factRows = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[cols.size()];
            for (int d = 0; d < dims; d++) {
                List<Object> vals = values.get(d);
                double u = rnd.nextDouble();
                row[d] = vals.get(wide && d < 2 ? (int) (vals.size() * u) : (int) (vals.size() * u * u));
            }
            for (int m = 0; m < doubles; m++) {
                row[dims + m] = (rnd.nextInt(8191) - 4095) / 8.0;
            }
            if (longMeasure) {
                row[dims + doubles] = (long) rnd.nextInt(2_000_001) - 1_000_000;
            }
            factRows.add(row);
        }
        TableSchema lookup = null;
        List<Object[]> lookupRows = null;
        if (rnd.nextInt(4) != 0) {
            lookup = new TableSchema(
                    "lk",
                    List.of(
                            ColumnSpec.of("d0", ColumnType.STRING),
                            ColumnSpec.of("rate", ColumnType.DOUBLE),
                            ColumnSpec.of("w", ColumnType.LONG)));
            lookupRows = new ArrayList<>();
            for (Object v : values.get(0)) {
                if (rnd.nextInt(5) != 0) {
                    int k = rnd.nextInt(64) - 24;
                    lookupRows.add(new Object[] {v, (k == 0 ? 1 : k) / 8.0, (long) rnd.nextInt(100)});
                }
            }
            lookupRows.add(new Object[] {"zz-not-in-fact", 2.0, 7L});
        }
        return new Dataset(fact, factRows, values, lookup, lookupRows, "d0");
    }

    private static CubeOptions options(Random rnd, Dataset ds) {
        CubeOptions o = CubeOptions.defaults();
        int sim = rnd.nextInt(4);
        o = o.withSimulatedNodes(sim);
        if (sim > 0) {
            o = o.withThreadsPerNode(1 + rnd.nextInt(2));
        } else {
            Placement p = List.of(
                            Placement.NODE_LOCAL,
                            Placement.INTERLEAVE,
                            Placement.OS_DEFAULT,
                            Placement.oneNode(0),
                            Placement.REMOTE)
                    .get(rnd.nextInt(5));
            o = o.withPlacement(p);
        }
        int dims =
                (int) ds.fact.columns().stream().filter(ColumnSpec::isDimension).count();
        Partitioning part = switch (rnd.nextInt(3)) {
            case 0 -> Partitioning.rowRanges(1 + rnd.nextInt(9));
            case 1 -> Partitioning.rowsPerPartition(1 + rnd.nextInt(2000));
            default -> Partitioning.byDimension("d" + rnd.nextInt(dims), 1 + rnd.nextInt(6));
        };
        int[] morsels = {1, 5, 64, 1000, 65536};
        return o.withPartitioning(part)
                .withMorselRows(morsels[rnd.nextInt(morsels.length)])
                .withWorkStealing(rnd.nextBoolean());
    }

    /** A query, how many leading key columns it has, which columns are exact, and whether ORDER BY fixes the order. */
    record GeneratedQuery(String sql, int keys, boolean[] exact, boolean ordered) {}

    private static GeneratedQuery query(Random rnd, Dataset ds) {
        TableSchema f = ds.fact;
        List<Integer> dimCols = new ArrayList<>();
        List<String> doubleCols = new ArrayList<>();
        String longCol = null;
        for (int c = 0; c < f.size(); c++) {
            ColumnSpec s = f.column(c);
            if (s.isDimension()) {
                dimCols.add(c);
            } else if (s.type() == ColumnType.DOUBLE) {
                doubleCols.add(s.name());
            } else {
                longCol = s.name();
            }
        }
        boolean join = ds.lookup != null && rnd.nextInt(3) == 0;
        List<Integer> keys = new ArrayList<>(dimCols);
        java.util.Collections.shuffle(keys, rnd);
        keys = keys.subList(0, rnd.nextInt(Math.min(3, keys.size()) + 1));
        List<String> select = new ArrayList<>();
        List<Boolean> exact = new ArrayList<>();
        for (int k : keys) {
            select.add(f.column(k).name());
            exact.add(true);
        }
        int aggs = 1 + rnd.nextInt(3);
        for (int a = 0; a < aggs; a++) {
            String m = doubleCols.get(rnd.nextInt(doubleCols.size()));
            String m2 = doubleCols.get(rnd.nextInt(doubleCols.size()));
            int pick = rnd.nextInt(join ? 19 : 13);
            if (pick == (join ? 18 : 12)) {
                ColumnSpec dim = f.column(dimCols.get(rnd.nextInt(dimCols.size())));
                if (dim.type() == ColumnType.INT && rnd.nextBoolean()) {
                    int k = rnd.nextInt(3);
                    select.add(
                            k == 0
                                    ? "SUM(" + dim.name() + ")"
                                    : k == 1 ? "AVG(" + dim.name() + ")" : "MAX(" + dim.name() + " * 2 + 1)");
                    exact.add(k != 1);
                } else {
                    select.add((rnd.nextBoolean() ? "MIN(" : "MAX(") + dim.name() + ")");
                    exact.add(true);
                }
                continue;
            }
            String agg;
            boolean ex;
            switch (pick) {
                case 0 -> {
                    agg = "COUNT(*)";
                    ex = true;
                }
                case 1 -> {
                    agg = "SUM(" + m + ")";
                    ex = true;
                }
                case 2 -> {
                    agg = "MIN(" + m + ")";
                    ex = true;
                }
                case 3 -> {
                    agg = "MAX(" + m + ")";
                    ex = true;
                }
                case 4 -> {
                    agg = "AVG(" + m + ")";
                    ex = false;
                }
                case 5 -> {
                    agg = "SUM(" + m + " * " + m2 + ")";
                    ex = true;
                }
                case 6 -> {
                    agg = "COUNT(" + m + ")";
                    ex = true;
                }
                case 7 -> {
                    agg = "MIN(-" + m + " + 1)";
                    ex = true;
                }
                case 8 -> {
                    agg = longCol == null ? "SUM(" + m + " - 2)" : "SUM(" + longCol + ")";
                    ex = true;
                }
                case 9 -> {
                    agg = longCol == null ? "MAX(" + m + " * 2)" : "MIN(" + longCol + ")";
                    ex = true;
                }
                case 10 -> {
                    agg = longCol == null ? "AVG(" + m + " / 4)" : "AVG(" + longCol + ")";
                    ex = false;
                }
                case 11 -> {
                    agg = "SUM(" + m + " / 3)";
                    ex = false;
                }
                case 12 -> {
                    agg = "SUM(" + m + " * rate)";
                    ex = true;
                }
                case 13 -> {
                    agg = "SUM(rate * " + m + ")";
                    ex = true;
                }
                case 14 -> {
                    agg = (rnd.nextBoolean() ? "MIN(" : "MAX(") + m + " * rate)";
                    ex = true;
                }
                case 15 -> {
                    agg = "AVG(" + m + " * rate)";
                    ex = false;
                }
                case 16 -> {
                    agg = "SUM(" + m + " + rate)";
                    ex = true;
                }
                default -> {
                    agg = rnd.nextBoolean() ? "SUM(rate)" : "SUM(" + m + " * w)";
                    ex = true;
                }
            }
            select.add(agg);
            exact.add(ex);
        }
        StringBuilder sql =
                new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM f");
        if (join) {
            sql.append(" JOIN lk USING (d0)");
        }
        if (rnd.nextInt(10) < 6) {
            int n = 1 + rnd.nextInt(3);
            List<String> conj = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                conj.add(predicate(rnd, ds, dimCols, doubleCols, join, 0));
            }
            sql.append(" WHERE ").append(String.join(" AND ", conj));
        }
        if (!keys.isEmpty()) {
            sql.append(" GROUP BY ");
            List<String> g = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                g.add(
                        rnd.nextInt(4) == 0
                                ? String.valueOf(i + 1)
                                : f.column(keys.get(i)).name());
            }
            sql.append(String.join(", ", g));
            if (rnd.nextInt(7) == 0) {
                sql.append(rnd.nextBoolean() ? " HAVING COUNT(*) > 1" : " HAVING SUM(" + doubleCols.get(0) + ") > 0");
            }
        }
        boolean ordered = false;
        if (!keys.isEmpty() && rnd.nextInt(4) == 0) {
            List<String> o = new ArrayList<>();
            if (rnd.nextBoolean()) {
                o.add((keys.size() + 1) + (rnd.nextBoolean() ? " DESC" : ""));
            }
            for (int i = 0; i < keys.size(); i++) {
                String name = rnd.nextBoolean()
                        ? String.valueOf(i + 1)
                        : f.column(keys.get(i)).name();
                o.add(name + (rnd.nextBoolean() ? " DESC" : " ASC"));
            }
            sql.append(" ORDER BY ").append(String.join(", ", o));
            if (rnd.nextBoolean()) {
                sql.append(" LIMIT ").append(1 + rnd.nextInt(10));
                if (rnd.nextInt(3) == 0) {
                    sql.append(" OFFSET ").append(rnd.nextInt(4));
                }
            }
            ordered = true;
        }
        boolean[] ex = new boolean[exact.size()];
        for (int i = 0; i < ex.length; i++) {
            ex[i] = exact.get(i);
        }
        return new GeneratedQuery(sql.toString(), keys.size(), ex, ordered);
    }

    private static String predicate(
            Random rnd, Dataset ds, List<Integer> dimCols, List<String> doubleCols, boolean join, int depth) {
        int pick = rnd.nextInt(depth > 1 ? 8 : 11);
        if (pick < 6) {
            int c = dimCols.get(rnd.nextInt(dimCols.size()));
            String name = ds.fact.column(c).name();
            List<Object> vals = ds.dimValues.get(c);
            ColumnType type = ds.fact.column(c).type();
            java.util.function.Function<Object, String> literal = v -> literal(type, v);
            String v1 = literal.apply(vals.get(rnd.nextInt(vals.size())));
            String v2 = literal.apply(vals.get(rnd.nextInt(vals.size())));
            return switch (pick) {
                case 0 -> name + " = " + v1;
                case 1 -> name + " <> " + v1;
                case 2 ->
                    name + (rnd.nextBoolean() ? " IN (" : " NOT IN (") + v1 + ", " + v2 + ", "
                            + literal.apply(vals.get(rnd.nextInt(vals.size()))) + ")";
                case 3 -> {
                    Object a = vals.get(rnd.nextInt(vals.size()));
                    Object b = vals.get(rnd.nextInt(vals.size()));
                    if (compare(a, b) > 0) {
                        Object t = a;
                        a = b;
                        b = t;
                    }
                    yield name + (rnd.nextInt(4) == 0 ? " NOT BETWEEN " : " BETWEEN ") + literal.apply(a) + " AND "
                            + literal.apply(b);
                }
                case 4 -> name + (rnd.nextBoolean() ? " < " : " >= ") + v1;
                default -> name + " = " + literal.apply(missing(type, vals.get(0)));
            };
        }
        String m = doubleCols.get(rnd.nextInt(doubleCols.size()));
        double lit = (rnd.nextInt(4001) - 2000) / 8.0;
        return switch (pick) {
            case 6 -> m + (rnd.nextBoolean() ? " > " : " <= ") + lit;
            case 7 -> m + " BETWEEN " + lit + " AND " + (lit + rnd.nextInt(300));
            case 8 ->
                "(" + predicate(rnd, ds, dimCols, doubleCols, join, depth + 1) + " OR "
                        + predicate(rnd, ds, dimCols, doubleCols, join, depth + 1) + ")";
            case 9 -> "NOT (" + predicate(rnd, ds, dimCols, doubleCols, join, depth + 1) + ")";
            default -> {
                int intDim = -1;
                for (int c : dimCols) {
                    if (ds.fact.column(c).type() == ColumnType.INT) {
                        intDim = c;
                    }
                }
                int k = rnd.nextInt(3);
                if (join && k == 0) {
                    yield "rate " + (rnd.nextBoolean() ? "> " : "< ") + (rnd.nextInt(9) - 3) / 2.0;
                } else if (join && k == 1) {
                    yield m + " * rate > " + lit;
                } else if (intDim >= 0 && k == 2) {
                    String d = ds.fact.column(intDim).name();
                    yield rnd.nextBoolean()
                            ? d + " * 2 + 1 > " + (rnd.nextInt(2_000_001) - 1_000_000)
                            : d + " / 1000 > " + m;
                }
                yield m + " * 2 < " + doubleCols.get(0) + " + 100";
            }
        };
    }

    /** A value no row has; a DATE one within years 0001-9999 (the generated dates are from 2020 on). */
    private static Object missing(ColumnType type, Object like) {
        if (type == ColumnType.DATE) {
            return LocalDate.of(1999, 12, 31).toEpochDay();
        }
        return switch (like) {
            case String s -> "no-such-" + s;
            case Long l -> l > 0 ? -2_000_000L : 2_000_000L;
            default -> 0L;
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }

    private static String literal(ColumnType type, Object v) {
        if (type == ColumnType.DATE) {
            return "DATE '" + LocalDate.ofEpochDay((Long) v) + "'";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        return String.valueOf(v);
    }
}
