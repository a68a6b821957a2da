package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A small table joined to a fact key of many values (looked up from the small table's side): after the small table's
 * rows were updated, deleted and appended, with NULL and absent keys, inner and LEFT joins answer as DuckDB does.
 */
class SmallDimManyKeysTest {

    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4096));
        TableStaging f = new TableStaging(TableSchema.parse("f", "k:int,day:date,v:long"));
        for (int r = 0; r < 120_000; r++) {
            if (r % 101 == 0) {
                f.setNull(0);
            } else {
                f.setLong(0, (r * 7919L) % 50_000 - 100);
            }
            f.setDate(1, 10_000 + r % 40_000);
            f.setLong(2, r);
            f.endRow();
        }
        cube.loadTable(f);
        duck.load(f);
        TableStaging d = new TableStaging(TableSchema.parse("d", "k:long,day:date,name:string,w:long"));
        for (int r = 0; r < 1000; r++) {
            if (r == 5) {
                d.setNull(0);
                d.setNull(1);
            } else {
                d.setLong(0, (r * 37L) % 60_000 - 100);
                d.setDate(1, 10_000 + (r * 41) % 45_000);
            }
            d.setString(2, "n" + r);
            d.setLong(3, r);
            d.endRow();
        }
        cube.loadTable(d);
        duck.load(d);
        for (String sql : List.of(
                "UPDATE d SET name = 'u' || name, w = w + 1000000 WHERE w % 4 = 1",
                "DELETE FROM d WHERE w % 3 = 0",
                "UPDATE d SET k = k + 1 WHERE w % 10 = 2",
                "INSERT INTO d VALUES (-100, DATE '1997-05-20', 'first', -1), (49899, NULL, 'last', -2)")) {
            if (sql.startsWith("UPDATE")) {
                cube.update(sql);
            } else if (sql.startsWith("DELETE")) {
                cube.delete(sql);
            } else {
                TableStaging more = new TableStaging(TableSchema.parse("d", "k:long,day:date,name:string,w:long"));
                more.setLong(0, -100);
                more.setDate(1, (int) java.time.LocalDate.parse("1997-05-20").toEpochDay());
                more.setString(2, "first");
                more.setLong(3, -1);
                more.endRow();
                more.setLong(0, 49_899);
                more.setNull(1);
                more.setString(2, "last");
                more.setLong(3, -2);
                more.endRow();
                cube.append("d", more);
            }
            duck.execute(sql);
        }
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        return List.of(
                "SELECT COUNT(*), SUM(v), SUM(w), MIN(name), MAX(name) FROM f JOIN d ON f.k = d.k",
                "SELECT COUNT(*), SUM(v), COUNT(w), COUNT(name) FROM f LEFT JOIN d ON f.k = d.k",
                "SELECT name, COUNT(*), SUM(v) FROM f JOIN d ON f.k = d.k GROUP BY name ORDER BY name LIMIT 50",
                "SELECT COUNT(*), SUM(v), SUM(w) FROM f JOIN d ON f.day = d.day",
                "SELECT d.name, COUNT(*) FROM f JOIN d ON f.day = d.day GROUP BY d.name ORDER BY d.name LIMIT 40",
                "SELECT COUNT(*), SUM(v) FROM f WHERE k IN (SELECT k FROM d WHERE name LIKE 'u%')",
                "SELECT COUNT(*), SUM(v) FROM f WHERE k NOT IN (SELECT k FROM d WHERE k IS NOT NULL)");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDb(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        boolean[] exact = new boolean[ours.columnCount()];
        ResultComparator.assertSame(sql, ours, theirs, 0, exact, sql.contains("ORDER BY"), 1e-9);
    }
}
