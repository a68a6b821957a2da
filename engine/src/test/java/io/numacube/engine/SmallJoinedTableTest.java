package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A joined table of far fewer rows than the fact key has values is joined from its side (each of its keys found among
 * the fact key's codes, as a subquery's few keys against TPC-H's order keys): these check it finds what the per-code
 * lookup finds, with keys in and out of the fact's range, NULL keys on both sides, keys unsorted, ascending and of a
 * span too wide to pack, an INT key against a BIGINT one, deleted rows in the joined table, and a fact key whose
 * dictionary grew by appends (not sorted, so the per-code lookup runs). Every answer is compared with DuckDB.
 */
class SmallJoinedTableTest {

    private static final String[] QUERIES = {
        "SELECT attr, COUNT(*), SUM(v) FROM f JOIN d ON f.k = d.k GROUP BY attr ORDER BY attr",
        "SELECT attr, COUNT(*), SUM(v) FROM f LEFT JOIN d ON f.k = d.k GROUP BY attr ORDER BY attr",
        "SELECT COUNT(*), SUM(v) FROM f WHERE EXISTS (SELECT * FROM d WHERE d.k = f.k AND attr <> 'a0')",
        "SELECT f.k, SUM(v) FROM f JOIN d ON f.k = d.k GROUP BY f.k ORDER BY f.k",
    };

    private DuckDb duck;
    private Cube cube;

    @BeforeEach
    void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void unsortedKeysFindTheirCodes() throws Exception {
        load(fact(new Random(1), 1));
        load(dimension(new Random(2), ColumnType.LONG, 300, 1, false));
        compareAll("unsorted");
    }

    @Test
    void ascendingKeysAndAnIntKeyFindTheirCodes() throws Exception {
        load(fact(new Random(3), 1));
        load(dimension(new Random(4), ColumnType.INT, 250, 1, true));
        compareAll("ascending INT keys");
    }

    @Test
    void keysOfAWideSpanFindTheirCodes() throws Exception {
        long spread = 1L << 40;
        load(fact(new Random(5), spread));
        load(dimension(new Random(6), ColumnType.LONG, 300, spread, false));
        compareAll("keys spread by 2^40");
    }

    @Test
    void deletedRowsOfTheJoinedTableJoinNothing() throws Exception {
        load(fact(new Random(7), 1));
        load(dimension(new Random(8), ColumnType.LONG, 400, 1, false));
        String delete = "DELETE FROM d WHERE k % 3 = 0";
        assertTrue(cube.delete(delete).rows() > 0, "some rows of d are deleted");
        duck.execute(delete);
        compareAll("after deleting a third of d");
    }

    @Test
    void aGrownFactKeyStillJoins() throws Exception {
        load(fact(new Random(9), 1));
        load(dimension(new Random(10), ColumnType.LONG, 300, 1, false));
        TableStaging low = new TableStaging(new TableSchema(
                "f", List.of(ColumnSpec.of("k", ColumnType.LONG), ColumnSpec.of("v", ColumnType.LONG))));
        StringBuilder insert = new StringBuilder("INSERT INTO f VALUES ");
        for (int r = 0; r < 50; r++) {
            low.setLong(0, -5 - r);
            low.setLong(1, r);
            low.endRow();
            insert.append(r == 0 ? "" : ", ")
                    .append("(")
                    .append(-5 - r)
                    .append(", ")
                    .append(r)
                    .append(")");
        }
        cube.append("f", low);
        duck.execute(insert.toString());
        compareAll("after appending keys below the others");
    }

    private void compareAll(String context) throws Exception {
        for (String q : QUERIES) {
            QueryResult ours = cube.query(q);
            List<Object[]> theirs = duck.query(q);
            ResultComparator.assertSame(context + ": " + q, ours, theirs, 0, new boolean[ours.columnCount()], true, 0);
        }
    }

    private void load(TableStaging t) throws Exception {
        cube.loadTable(t);
        duck.load(t);
    }

    /** 20,000 rows of a BIGINT key (about 8,000 distinct values of 0..9,999 times {@code spread}, some NULL). */
    private static TableStaging fact(Random rnd, long spread) {
        TableStaging st = new TableStaging(new TableSchema(
                "f", List.of(ColumnSpec.of("k", ColumnType.LONG), ColumnSpec.of("v", ColumnType.LONG))));
        for (int r = 0; r < 20_000; r++) {
            if (rnd.nextInt(50) == 0) {
                st.setNull(0);
            } else {
                st.setLong(0, rnd.nextInt(10_000) * spread);
            }
            st.setLong(1, rnd.nextInt(100));
            st.endRow();
        }
        return st;
    }

    /**
     * {@code rows} distinct keys of 0..11,999 times {@code spread} (some beyond the fact's), in random or ascending
     * order, plus one row of a NULL key; an attribute each.
     */
    private static TableStaging dimension(Random rnd, ColumnType keyType, int rows, long spread, boolean ascending) {
        List<Long> keys = new ArrayList<>();
        for (long k = 0; k < 12_000; k++) {
            keys.add(k * spread);
        }
        Collections.shuffle(keys, rnd);
        List<Long> chosen = new ArrayList<>(keys.subList(0, rows));
        if (ascending) {
            Collections.sort(chosen);
        }
        TableStaging st = new TableStaging(
                new TableSchema("d", List.of(ColumnSpec.of("k", keyType), ColumnSpec.of("attr", ColumnType.STRING))));
        for (long k : chosen) {
            st.setLong(0, k);
            st.setString(1, "a" + rnd.nextInt(5));
            st.endRow();
        }
        st.setNull(0);
        st.setString(1, "null key");
        st.endRow();
        return st;
    }
}
