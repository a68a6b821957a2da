package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows appended to a table in batches ({@link Cube#append}) answer every query as DuckDB does with all the rows in one
 * table: new values of every type (text before and after the old ones, so dictionaries stop being sorted; dates and ids
 * that only grow, so they stay sorted), NULLs that first appear in a later batch, appended rows of a joined table, and
 * enough batches that the small partitions are merged. Plus the version count, atomic failures and snapshot reads.
 */
class CubeAppendTest {

    private static final TableSchema FACT = new TableSchema(
            "f",
            List.of(
                    ColumnSpec.of("s", ColumnType.STRING),
                    ColumnSpec.of("k", ColumnType.INT),
                    ColumnSpec.of("day", ColumnType.DATE),
                    ColumnSpec.of("v", ColumnType.DOUBLE),
                    ColumnSpec.of("n", ColumnType.LONG),
                    ColumnSpec.of("id", ColumnType.INT)));
    private static final TableSchema DIM =
            new TableSchema("d", List.of(ColumnSpec.of("k", ColumnType.INT), ColumnSpec.of("name", ColumnType.STRING)));
    private static final int BATCHES = 40;

    private static DuckDb duck;
    private static Cube cube;
    private static long factVersion;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
        Random rnd = new Random(11);
        List<Object[]> facts = new ArrayList<>();
        List<Object[]> dims = new ArrayList<>();
        int nextId = 0;
        for (int b = 0; b < BATCHES; b++) {
            List<Object[]> batch = new ArrayList<>();
            int rows = b == 0 ? 3000 : 1 + rnd.nextInt(400);
            for (int r = 0; r < rows; r++) {
                batch.add(factRow(rnd, b, nextId++));
            }
            facts.addAll(batch);
            factVersion = add(FACT, batch, b == 0);
            if (b % 10 == 0) {
                List<Object[]> dimBatch = new ArrayList<>();
                for (int k = 5 * b; k < 5 * b + 50; k++) {
                    dimBatch.add(new Object[] {(long) k, "name" + (k % 7 == 0 && b > 0 ? "-late" : "") + (k % 13)});
                }
                dims.addAll(dimBatch);
                add(DIM, dimBatch, b == 0);
            }
        }
        duck.load(FACT, facts);
        duck.load(DIM, dims);
    }

    /** Text drawn around the first batch's values, NULL text and numbers from batch 5, keys growing with the batch. */
    private static Object[] factRow(Random rnd, int batch, int id) {
        String s = rnd.nextInt(20) == 0 && batch >= 5
                ? null
                : (char) ('a' + rnd.nextInt(batch == 0 ? 10 : 26)) + "" + rnd.nextInt(1 + batch);
        Long k = (long) rnd.nextInt(10 + 5 * batch);
        Long day = 19_000L + batch * 3 + rnd.nextInt(3);
        Double v = rnd.nextInt(30) == 0 && batch >= 5 ? null : (double) rnd.nextInt(10_000) / 4;
        Long n = rnd.nextInt(30) == 0 && batch >= 7 ? null : (long) rnd.nextInt(100) - 40;
        return new Object[] {s, k, day, v, n, (long) id};
    }

    private static long add(TableSchema schema, List<Object[]> rows, boolean first) {
        TableStaging staging = stage(schema, rows);
        if (first) {
            cube.loadTable(staging);
            return cube.version(schema.name());
        }
        return cube.append(schema.name(), staging);
    }

    static TableStaging stage(TableSchema schema, List<Object[]> rows) {
        TableStaging t = new TableStaging(schema);
        for (Object[] row : rows) {
            for (int c = 0; c < schema.size(); c++) {
                Object x = row[c];
                if (x == null) {
                    t.setNull(c);
                } else if (x instanceof String str) {
                    t.setString(c, str);
                } else if (x instanceof Double d) {
                    t.setDouble(c, d);
                } else if (schema.column(c).type() == ColumnType.DATE) {
                    t.setDate(c, (int) (long) (Long) x);
                } else {
                    t.setLong(c, (Long) x);
                }
            }
            t.endRow();
        }
        return t;
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        return List.of(
                "SELECT s, COUNT(*), SUM(v), MIN(k), MAX(k), MIN(day), MAX(n) FROM f GROUP BY s ORDER BY s NULLS FIRST",
                "SELECT MIN(s), MAX(s), MIN(k), MAX(k), MIN(day), MAX(day), MIN(id), MAX(id), COUNT(s), COUNT(v) FROM f",
                "SELECT COUNT(DISTINCT s), COUNT(DISTINCT k), COUNT(DISTINCT n), COUNT(*) FROM f",
                "SELECT k, SUM(n), COUNT(*) FROM f WHERE s LIKE 'c%' OR s IS NULL GROUP BY k ORDER BY k",
                "SELECT s, SUM(k), AVG(k), MIN(k), SUM(id) FROM f GROUP BY s ORDER BY s",
                "SELECT day, COUNT(*), AVG(v) FROM f WHERE day >= DATE '2022-01-01' GROUP BY day ORDER BY day",
                "SELECT n, COUNT(*) FROM f GROUP BY n ORDER BY n NULLS LAST",
                "SELECT d.name, SUM(f.v), COUNT(*) FROM f JOIN d ON f.k = d.k GROUP BY d.name ORDER BY d.name",
                "SELECT s, MIN(d.name), MAX(d.name) FROM f LEFT JOIN d ON f.k = d.k GROUP BY s ORDER BY s NULLS LAST",
                "SELECT s, k, id, v FROM f WHERE k > 150 AND s > 'w' ORDER BY id LIMIT 30",
                "SELECT s, SUM(v) AS t FROM f GROUP BY s HAVING COUNT(*) > 3 ORDER BY t DESC, s LIMIT 10");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void appendedRowsAnswerAsOneTable(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 1e-9);
    }

    @Test
    void eachAppendMakesTheNextVersionAndSmallPartitionsAreMerged() {
        assertEquals(BATCHES, factVersion);
        assertEquals(BATCHES, cube.version("F"));
        long parts =
                cube.placement().stream().filter(p -> p.table().equals("f")).count();
        assertTrue(parts < BATCHES, "appended partitions were not merged: " + parts + " partitions");
    }

    @Test
    void aFailedAppendChangesNothing() {
        long version = cube.version("f");
        long rows = cube.rowCount("f");
        TableStaging wrong = stage(DIM, List.<Object[]>of(new Object[] {1L, "x"}));
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.append("f", wrong));
        assertTrue(e.getMessage().contains("must have the table's columns"), e.getMessage());
        assertThrows(NumacubeException.class, () -> cube.append("nope", wrong));
        assertEquals(version, cube.version("f"));
        assertEquals(rows, cube.rowCount("f"));
        assertEquals(version, cube.append("f", new TableStaging(FACT)));
    }

    @Test
    void batchesOfSeveralTablesAreAppendedAllOrNone() {
        TableSchema a = new TableSchema("a", List.of(ColumnSpec.of("x", ColumnType.LONG)));
        TableSchema b = new TableSchema("b", List.of(ColumnSpec.of("y", ColumnType.STRING)));
        cube.loadTable(stage(a, List.<Object[]>of(new Object[] {1L})));
        cube.loadTable(stage(b, List.<Object[]>of(new Object[] {"one"})));
        var versions = cube.append(List.of(
                new TableBatch("a", stage(a, List.<Object[]>of(new Object[] {2L}))),
                new TableBatch("B", stage(b, List.<Object[]>of(new Object[] {"two"}))),
                new TableBatch("a", stage(a, List.<Object[]>of(new Object[] {3L})))));
        assertEquals(2L, versions.get("a"));
        assertEquals(2L, versions.get("b"));
        assertEquals(6L, cube.query("SELECT SUM(x) FROM a").getLong(0, 0));
        assertThrows(
                NumacubeException.class,
                () -> cube.append(List.of(
                        new TableBatch("a", stage(a, List.<Object[]>of(new Object[] {4L}))),
                        new TableBatch("b", stage(a, List.<Object[]>of(new Object[] {5L}))))));
        assertEquals(6L, cube.query("SELECT SUM(x) FROM a").getLong(0, 0));
        assertEquals(2L, cube.version("a"));
        assertEquals(3L, cube.append("a", stage(a, List.<Object[]>of(new Object[] {1L}))));
        assertEquals(7L, cube.query("SELECT SUM(x) FROM a").getLong(0, 0));
    }

    /** What superseded versions alone held (merged partitions, old query-time codes) is freed once no query reads it. */
    @Test
    void supersededVersionsAreFreed() {
        cube.query("SELECT n, COUNT(*) FROM f GROUP BY n");
        assertEquals(cube.nativeBytes(), cube.liveNativeBytes());
    }

    /**
     * A reader sees each batch all or nothing: batches of {@code size} rows of one new text value each, so every
     * snapshot holds a whole number of batches and as many distinct values as batches.
     */
    @Test
    void queriesSeeWholeBatchesWhileAnotherThreadAppends() throws Exception {
        TableSchema schema = new TableSchema(
                "live", List.of(ColumnSpec.of("batch", ColumnType.STRING), ColumnSpec.of("x", ColumnType.LONG)));
        int size = 97;
        cube.loadTable(stage(schema, batchOf(0, size)));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                for (int b = 1; b <= 60; b++) {
                    cube.append("live", stage(schema, batchOf(b, size)));
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        int checks = 0;
        while (writer.isAlive() || checks == 0) {
            QueryResult r = cube.query("SELECT COUNT(*), COUNT(DISTINCT batch), SUM(x) FROM live");
            long count = r.getLong(0, 0);
            long batches = r.getLong(0, 1);
            assertEquals(0, count % size, "a partial batch: " + r);
            assertEquals(count / size, batches, r.toString());
            assertEquals(batches * (size * (size - 1L) / 2), r.getLong(0, 2), r.toString());
            checks++;
        }
        writer.join();
        assertFalse(failure.get() != null, () -> "writer failed: " + failure.get());
        assertEquals(61L * size, cube.rowCount("live"));
        assertEquals(61, cube.version("live"));
    }

    private static List<Object[]> batchOf(int b, int size) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            rows.add(new Object[] {"batch-" + (1000 - b), (long) i});
        }
        return rows;
    }
}
