package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a join computes per code (rows per key code, masks, derived keys, factors, null masks) is kept between queries;
 * these check that a kept table is never used where it no longer holds: after a joined table is replaced, with joins
 * in another order or of another kind, and through one query's temporary table. Every answer is compared with DuckDB
 * on the same rows.
 */
class JoinMemoTest {

    private static final String[] QUERIES = {
        "SELECT attr, COUNT(*), SUM(v) FROM f JOIN d ON f.k = d.k GROUP BY attr ORDER BY attr",
        "SELECT SUM(v * rate), COUNT(*) FROM f JOIN d ON f.k = d.k WHERE attr <> 'a1'",
        "SELECT region, SUM(v) FROM f JOIN d ON f.k = d.k JOIN r ON d.rk = r.rk GROUP BY region ORDER BY region",
        "SELECT region, SUM(v) FROM f JOIN d ON f.k = d.k LEFT JOIN r ON d.rk = r.rk GROUP BY region ORDER BY region",
        "SELECT attr, COUNT(rate), MAX(v) FROM f LEFT JOIN d ON f.k = d.k GROUP BY attr ORDER BY attr",
        "SELECT attr, SUM(v) FROM f JOIN d ON f.k = d.k WHERE f.k IN (SELECT k FROM f GROUP BY k HAVING SUM(v) > 500)"
                + " GROUP BY attr ORDER BY attr",
        "SELECT upper(attr), COUNT(*) FROM f JOIN d ON f.k = d.k WHERE rate > 0 GROUP BY upper(attr) ORDER BY 1",
    };

    private DuckDb duck;
    private Cube cube;

    @BeforeEach
    void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        load(fact(new Random(1)));
        load(dimension(new Random(2)));
        load(regions(new Random(3)));
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void queriesRunTwiceGiveTheSameAnswers() throws Exception {
        for (int run = 0; run < 2; run++) {
            for (String q : QUERIES) {
                compare("run " + run + ": " + q, q);
            }
        }
    }

    @Test
    void aReplacedDimensionIsReadAgain() throws Exception {
        QueryResult before = cube.query(QUERIES[0]);
        for (String q : QUERIES) {
            compare("before: " + q, q);
        }
        load(dimension(new Random(99)));
        for (String q : QUERIES) {
            compare("after replacing d: " + q, q);
        }
        assertNotEquals(before.toString(), cube.query(QUERIES[0]).toString(), "the new d has other attributes");
        load(regions(new Random(98)));
        for (String q : QUERIES) {
            compare("after replacing r: " + q, q);
        }
    }

    private void compare(String context, String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        boolean[] exact = new boolean[ours.columnCount()];
        ResultComparator.assertSame(context, ours, theirs, 0, exact, true, 1e-9);
    }

    private void load(TableStaging t) throws Exception {
        cube.loadTable(t);
        duck.load(t);
    }

    /** 5,000 rows of a plain BIGINT key 0..399 (coded at query time) and a value. */
    private static TableStaging fact(Random rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "f", List.of(ColumnSpec.of("k", ColumnType.LONG), ColumnSpec.of("v", ColumnType.LONG))));
        for (int r = 0; r < 5_000; r++) {
            st.setLong(0, rnd.nextInt(400));
            st.setLong(1, rnd.nextInt(100));
            st.endRow();
        }
        return st;
    }

    /** Keys 0..349 (some fact keys match nothing), a few attributes, a rate, a region key (some NULL). */
    private static TableStaging dimension(Random rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "d",
                List.of(
                        ColumnSpec.of("k", ColumnType.LONG),
                        ColumnSpec.of("attr", ColumnType.STRING),
                        ColumnSpec.of("rate", ColumnType.DOUBLE),
                        ColumnSpec.of("rk", ColumnType.LONG))));
        for (int key = 0; key < 350; key++) {
            st.setLong(0, key);
            st.setString(1, "a" + rnd.nextInt(6));
            if (rnd.nextInt(10) == 0) {
                st.setNull(2);
            } else {
                st.setDouble(2, rnd.nextInt(9) - 2);
            }
            if (rnd.nextInt(8) == 0) {
                st.setNull(3);
            } else {
                st.setLong(3, rnd.nextInt(12));
            }
            st.endRow();
        }
        return st;
    }

    /** Region keys 0..9 (keys 10 and 11 of d match nothing), named at random. */
    private static TableStaging regions(Random rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "r", List.of(ColumnSpec.of("rk", ColumnType.LONG), ColumnSpec.of("region", ColumnType.STRING))));
        for (int key = 0; key < 10; key++) {
            st.setLong(0, key);
            st.setString(1, "r" + rnd.nextInt(4));
            st.endRow();
        }
        return st;
    }
}
