package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELETE and upserts ({@link Cube#delete}, {@link Cube#setKey}): every query answers as DuckDB does over the same rows
 * after the same writes, with deleted rows of the fact table and of a joined table, rows replaced by key (the last of a
 * batch winning), deletes by a subquery, and merging that drops deleted rows for good.
 */
class CubeDeleteTest {

    private static final TableSchema FACT = new TableSchema(
            "f",
            List.of(
                    ColumnSpec.of("id", ColumnType.LONG),
                    ColumnSpec.of("s", ColumnType.STRING),
                    ColumnSpec.of("k", ColumnType.INT),
                    ColumnSpec.of("v", ColumnType.DOUBLE),
                    ColumnSpec.of("n", ColumnType.LONG)));
    private static final TableSchema DIM =
            new TableSchema("d", List.of(ColumnSpec.of("k", ColumnType.INT), ColumnSpec.of("name", ColumnType.STRING)));

    private DuckDb duck;
    private Cube cube;
    private final Random rnd = new Random(5);
    private final Map<Long, Object[]> facts = new LinkedHashMap<>();

    @BeforeEach
    void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512));
        List<Object[]> rows = new ArrayList<>();
        for (long id = 0; id < 5000; id++) {
            rows.add(row(id));
        }
        rows.forEach(r -> facts.put((Long) r[0], r));
        cube.loadTable(CubeAppendTest.stage(FACT, rows));
        List<Object[]> dims = new ArrayList<>();
        for (long k = 0; k < 60; k++) {
            dims.add(new Object[] {k, "name" + (k % 9)});
        }
        cube.loadTable(CubeAppendTest.stage(DIM, dims));
        duck.load(FACT, rows);
        duck.load(DIM, dims);
    }

    private Object[] row(long id) {
        return new Object[] {
            id,
            rnd.nextInt(25) == 0 ? null : "s" + rnd.nextInt(30),
            (long) rnd.nextInt(70),
            rnd.nextInt(20) == 0 ? null : (double) rnd.nextInt(1000) / 8,
            (long) rnd.nextInt(50)
        };
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT COUNT(*), SUM(v), MIN(s), MAX(s), COUNT(DISTINCT k), SUM(n), MIN(id), MAX(id) FROM f",
            "SELECT s, COUNT(*), SUM(v), AVG(n) FROM f GROUP BY s ORDER BY s NULLS FIRST",
            "SELECT d.name, COUNT(*), SUM(f.v) FROM f JOIN d ON f.k = d.k GROUP BY d.name ORDER BY d.name",
            "SELECT f.k, COUNT(*), MIN(d.name) FROM f LEFT JOIN d ON f.k = d.k GROUP BY f.k ORDER BY f.k",
            "SELECT id, s, k, v FROM f WHERE n < 3 ORDER BY id LIMIT 40",
            "SELECT COUNT(*) FROM f WHERE k IN (SELECT k FROM d WHERE name = 'name3')");

    private void assertLikeDuckDb(String context) throws Exception {
        for (String sql : QUERIES) {
            QueryResult ours = cube.query(sql);
            ResultComparator.assertSame(
                    context + ": " + sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 1e-9);
        }
    }

    @Test
    void deletedRowsAreGoneFromEveryQuery() throws Exception {
        for (String where : List.of(
                "n = 7", "s LIKE 's1%' AND v > 50", "k IN (SELECT k FROM d WHERE name = 'name2')", "s IS NULL")) {
            WriteResult done = cube.delete("DELETE FROM f WHERE " + where);
            long expected = duck.query("SELECT COUNT(*) FROM f WHERE " + where).get(0)[0] instanceof Number x
                    ? x.longValue()
                    : -1;
            duck.execute("DELETE FROM f WHERE " + where);
            assertEquals(expected, done.rows(), where);
            assertLikeDuckDb("after DELETE WHERE " + where);
        }
        WriteResult dims = cube.delete("delete from D where k % 4 = 1");
        duck.execute("DELETE FROM d WHERE k % 4 = 1");
        assertEquals(15, dims.rows());
        assertLikeDuckDb("after deleting rows of the joined table");
        assertEquals(0, cube.delete("DELETE FROM f WHERE n = 7").rows());
        assertEquals(cube.nativeBytes(), cube.liveNativeBytes());
    }

    @Test
    void deletingMostRowsMergesThemAwayAndEverythingStillAnswers() throws Exception {
        cube.delete("DELETE FROM f WHERE n > 10");
        duck.execute("DELETE FROM f WHERE n > 10");
        long placed = cube.placement().stream()
                .filter(p -> p.table().equals("f"))
                .mapToLong(PartitionInfo::rows)
                .sum();
        assertEquals(cube.rowCount("f"), placed, "partitions rewritten without their deleted rows");
        assertLikeDuckDb("after deleting most rows");
        cube.delete("DELETE FROM f");
        duck.execute("DELETE FROM f");
        assertEquals(0, cube.rowCount("f"));
        assertLikeDuckDb("after deleting every row");
    }

    @Test
    void upsertsReplaceRowsByKeyAndTheLastOfABatchWins() throws Exception {
        cube.setKey("f", List.of("id"));
        for (int b = 0; b < 12; b++) {
            List<Object[]> batch = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                long id = rnd.nextInt(b < 6 ? 5000 : 7000);
                Object[] r = row(id);
                if (i % 50 == 0) {
                    r[0] = null;
                }
                batch.add(r);
            }
            cube.append("f", CubeAppendTest.stage(FACT, batch));
            for (Object[] r : batch) {
                facts.put(r[0] == null ? -1_000_000L - facts.size() : (Long) r[0], r);
            }
        }
        duck.load(FACT, new ArrayList<>(facts.values()));
        assertEquals(facts.size(), cube.rowCount("f"));
        assertLikeDuckDb("after upserts");
        assertEquals(
                duck.query("SELECT COUNT(DISTINCT id) FROM f").get(0)[0].toString(),
                cube.query("SELECT COUNT(DISTINCT id) FROM f").getObject(0, 0).toString());
    }

    @Test
    void aBadDeleteIsRefusedWithItsPositionAndDeletesNothing() {
        long rows = cube.rowCount("f");
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> cube.delete("DELETE FROM f WHERE nosuch = 1"));
        assertTrue(e.getMessage().contains("nosuch") && e.getMessage().contains("1:21"), e.getMessage());
        assertThrows(NumacubeException.class, () -> cube.delete("DELETE FROM nosuch"));
        assertThrows(NumacubeException.class, () -> cube.delete("SELECT 1"));
        assertThrows(NumacubeException.class, () -> cube.setKey("f", List.of("v")));
        assertEquals(rows, cube.rowCount("f"));
        assertEquals(1, cube.version("f"));
    }

    @Test
    void aDeleteAfterOrAroundCommentsDeletesItsRowsWithTheirPositions() {
        // ORMs put a comment before the statement (Hibernate's use_sql_comments): PostgreSQL and DuckDB skip it
        long rows = cube.rowCount("f");
        long n = cube.query("SELECT COUNT(*) FROM f WHERE k = 3").getLong(0, 0);
        assertEquals(
                n, cube.delete("/* delete Fact */ DELETE FROM f WHERE k = 3").rows());
        long m = cube.query("SELECT COUNT(*) FROM f WHERE k = 4").getLong(0, 0);
        assertEquals(
                m, cube.delete("-- why\nDELETE /* all of */ FROM f WHERE k = 4").rows());
        assertEquals(rows - n - m, cube.rowCount("f"));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> cube.delete("/* c */ DELETE/**/FROM f WHERE nosuch = 1"));
        assertTrue(e.getMessage().contains("1:32"), e.getMessage());
        e = assertThrows(NumacubeException.class, () -> cube.delete("-- c\nDELETE FROM f\nWHERE nosuch = 1"));
        assertTrue(e.getMessage().contains("3:7"), e.getMessage());
        assertThrows(NumacubeException.class, () -> cube.delete("/* DELETE FROM f */ SELECT 1"));
    }
}
