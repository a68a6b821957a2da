package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random tables written as CSV (with every kind of quoting), loaded into a cube through the CSV reader, then
 * aggregated per dimension value: counts, sums, minimums and maximums must match the same aggregation done in Java
 * over the values that were written.
 */
class CsvCubeRoundTripTest {

    private static final String[] TEXT = {
        "a", "B", "x y", ",", "\"", "\n", "é", "€", "😀", "", " lead", "trail ", "DESK-01", "1.5", "2025-01-02"
    };

    @Test
    void aggregatesOfLoadedCsvTablesMatchTheWrittenValues(@TempDir Path dir) throws Exception {
        long seed = 77;
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withMorselRows(64))) {
            for (int trial = 0; trial < 25; trial++) {
                SplittableRandom rnd = new SplittableRandom(seed + trial);
                TableSchema schema = schema(rnd);
                List<List<Object>> rows = rows(rnd, schema);
                Path file = dir.resolve("t" + trial + ".csv");
                Files.write(file, CsvRoundTripTest.write(schema, rows, ','));
                boolean declared = rnd.nextBoolean();
                cube.loadTable(new CsvStagingLoader(CsvOptions.DEFAULT)
                        .stage(file, "t", declared ? schema : null, CsvProgress.NONE)
                        .staging());
                TableSchema loaded = cube.schema("t");
                String context = "seed=" + (seed + trial) + " schema=" + loaded.declaration() + " rows=" + rows.size();
                assertEquals(rows.size(), cube.rowCount("t"), context);
                for (int d = 0; d < schema.size(); d++) {
                    if (!loaded.column(d).isDimension()) {
                        continue;
                    }
                    for (int m = 0; m < schema.size(); m++) {
                        if (loaded.column(m).isDimension()) {
                            continue;
                        }
                        check(cube, schema, rows, d, m, context);
                    }
                }
            }
        }
    }

    private static void check(Cube cube, TableSchema schema, List<List<Object>> rows, int d, int m, String context) {
        String dim = schema.column(d).name();
        String measure = schema.column(m).name();
        Map<Object, double[]> expected = new HashMap<>();
        for (List<Object> row : rows) {
            double v = ((Number) row.get(m)).doubleValue();
            double[] a = expected.computeIfAbsent(
                    row.get(d), k -> new double[] {0, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0});
            a[0]++;
            a[1] += v;
            a[2] = Math.min(a[2], v);
            a[3] = Math.max(a[3], v);
            a[4] += Math.abs(v);
        }
        QueryResult r = cube.query("SELECT " + dim + ", COUNT(*), SUM(" + measure + "), MIN(" + measure + "), MAX("
                + measure + ") FROM t GROUP BY " + dim);
        String where = context + " dim=" + dim + " measure=" + measure;
        assertEquals(expected.size(), r.rowCount(), where);
        for (int i = 0; i < r.rowCount(); i++) {
            Object k = r.getObject(i, 0);
            double[] a = expected.get(k);
            assertNotNull(a, where + " unexpected key=" + k);
            assertEquals((long) a[0], r.getLong(i, 1), where + " key=" + k);
            assertEquals(a[1], r.getDouble(i, 2), 1e-9 * Math.max(1, a[4]), where + " key=" + k);
            assertEquals(a[2], r.getDouble(i, 3), where + " key=" + k);
            assertEquals(a[3], r.getDouble(i, 4), where + " key=" + k);
        }
    }

    private static TableSchema schema(SplittableRandom rnd) {
        List<ColumnSpec> cols = new ArrayList<>();
        ColumnType[] dims = {ColumnType.STRING, ColumnType.DATE, ColumnType.INT, ColumnType.BOOLEAN};
        ColumnType[] measures = {ColumnType.DOUBLE, ColumnType.LONG};
        int nd = 1 + rnd.nextInt(3);
        int nm = 1 + rnd.nextInt(2);
        for (int i = 0; i < nd + nm; i++) {
            ColumnType t = i < nd ? dims[rnd.nextInt(dims.length)] : measures[rnd.nextInt(measures.length)];
            cols.add(new ColumnSpec("c" + i, t));
        }
        java.util.Collections.shuffle(cols, new java.util.Random(rnd.nextLong()));
        return new TableSchema("t", cols);
    }

    private static List<List<Object>> rows(SplittableRandom rnd, TableSchema schema) {
        int n = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(3) : 1 + rnd.nextInt(3000);
        int cardinality = 1 + rnd.nextInt(rnd.nextBoolean() ? 10 : 500);
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            List<Object> row = new ArrayList<>();
            for (ColumnSpec c : schema.columns()) {
                int pick = rnd.nextInt(cardinality);
                row.add(
                        switch (c.type()) {
                            case STRING ->
                                TEXT[pick % TEXT.length] + (pick / TEXT.length == 0 ? "" : pick / TEXT.length);
                            case DATE -> LocalDate.of(2024, 1, 1).plusDays(pick);
                            case INT -> (long) pick * (pick % 2 == 0 ? 1 : -1);
                            case BOOLEAN -> pick % 2 == 0;
                            case LONG -> rnd.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
                            case DOUBLE ->
                                rnd.nextInt(4) == 0 ? rnd.nextInt(-1000, 1000) / 100.0 : rnd.nextDouble(-1e6, 1e6);
                            case TIMESTAMP, DECIMAL ->
                                throw new IllegalStateException("schema() picks no " + c.type() + " column");
                        });
            }
            out.add(row);
        }
        return out;
    }
}
