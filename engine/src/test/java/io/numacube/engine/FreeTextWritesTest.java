package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A free-text column (unsorted dictionary) after writes: rows appended with new strings that sort before, between and
 * after the loaded ones, an UPDATE that rewrites some of them, a DELETE; ranges, MIN/MAX, ORDER BY, BETWEEN, IN,
 * joins on the text and GROUP BY answer as DuckDB does after the same writes.
 */
class FreeTextWritesTest {

    private static final int ROWS = 300_000;
    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4096));
        TableStaging t = new TableStaging(TableSchema.parse("t", "note:string,k:string,v:long"));
        Random rnd = new Random(7);
        for (int r = 0; r < ROWS; r++) {
            if (r % 97 == 0) {
                t.setNull(0);
            } else {
                t.setString(0, "m" + Long.toString(rnd.nextLong() & Long.MAX_VALUE, 36) + " " + r);
            }
            t.setString(1, "k" + (r % 7));
            t.setLong(2, r);
            t.endRow();
        }
        cube.loadTable(t);
        duck.load(t);
        TableStaging d = new TableStaging(TableSchema.parse("d", "note:string,w:long"));
        for (String s : List.of("m1 1", "a0 first", "zz last", "m5 5", "n new")) {
            d.setString(0, s);
            d.setLong(1, s.length());
            d.endRow();
        }
        cube.loadTable(d);
        duck.load(d);
        TableStaging more = new TableStaging(TableSchema.parse("t", "note:string,k:string,v:long"));
        String[] added = {"a0 first", "zz last", "n new", "m0", "m5 5", "", "M upper"};
        for (int i = 0; i < added.length; i++) {
            more.setString(0, added[i]);
            more.setString(1, "k" + i);
            more.setLong(2, -i);
            more.endRow();
        }
        cube.append("t", more);
        duck.execute("INSERT INTO t VALUES ('a0 first','k0',0),('zz last','k1',-1),('n new','k2',-2),('m0','k3',-3),"
                + "('m5 5','k4',-4),('','k5',-5),('M upper','k6',-6)");
        for (String sql : List.of(
                "UPDATE t SET note = 'b updated ' || k WHERE v % 1000 = 3",
                "UPDATE t SET note = NULL WHERE v % 1000 = 5", "DELETE FROM t WHERE v % 1000 = 7")) {
            if (sql.startsWith("UPDATE")) {
                cube.update(sql);
            } else {
                cube.delete(sql);
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
                "SELECT MIN(note), MAX(note), COUNT(note), COUNT(DISTINCT note), COUNT(*) FROM t",
                "SELECT k, MIN(note), MAX(note), COUNT(DISTINCT note) FROM t GROUP BY k ORDER BY k",
                "SELECT note, v FROM t ORDER BY note NULLS FIRST, v LIMIT 20",
                "SELECT note, v FROM t ORDER BY note DESC NULLS LAST, v LIMIT 20",
                "SELECT note, v FROM t ORDER BY note, v LIMIT 10 OFFSET 150000",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note < 'b'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note <= 'm0'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note > 'n'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note >= 'b updated k3'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note BETWEEN 'm1' AND 'm5 5'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note NOT BETWEEN 'm1' AND 'm5 5'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note IN ('zz last', 'm0', '', 'nope')",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note NOT IN ('zz last', 'm0')",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note LIKE 'b upd%'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note <> 'n new'",
                "SELECT COUNT(*) FROM t WHERE note IS NULL",
                "SELECT note, COUNT(*), SUM(v) FROM t GROUP BY note HAVING COUNT(*) > 1 ORDER BY note NULLS FIRST",
                "SELECT t.note, SUM(v), SUM(w) FROM t JOIN d ON t.note = d.note GROUP BY t.note ORDER BY t.note",
                "SELECT COUNT(*), SUM(v) FROM t JOIN d USING (note) WHERE w > 4",
                "SELECT d.note, COUNT(t.v) FROM d LEFT JOIN t ON t.note = d.note GROUP BY d.note ORDER BY d.note",
                "SELECT note FROM t WHERE note < 'm0' ORDER BY note LIMIT 30",
                "SELECT DISTINCT note FROM t WHERE note >= 'zz' OR note < 'b' ORDER BY note");
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
