package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Prepared joins and their chains ({@link Cube#prepareJoinChains}) answer as DuckDB does, before and after every kind
 * of write to each table of a chain (appended rows that a fact key now finds, deleted rows it no longer finds,
 * appended fact rows of new keys): what was built ahead belongs to the tables' versions it was built for, and a later
 * version is never answered from it; a write builds them again in the background. A two-column join declared in one order is found by a query that names its
 * equalities in the other. Groupings by the joined tables' columns (a plain column of 95,000 values or more among
 * them, coded when its join is prepared) answer as DuckDB does before and after the writes too.
 */
class PreparedChainsTest {

    /** More order keys than a load codes through a dictionary: the fact key is coded at query time. */
    private static final int ORDERS = 100_000;

    private static final List<String> DECLARED =
            List.of("li.ok=ord.ok", "ord.ck=cust.ck", "cust.nk=nat.nk", "li.pk+sk=ps.pk+sk");

    private static final String[] QUERIES = {
        "SELECT nname, COUNT(*), SUM(v) FROM li JOIN ord ON li.ok = ord.ok JOIN cust ON ord.ck = cust.ck"
                + " JOIN nat ON cust.nk = nat.nk GROUP BY nname ORDER BY nname",
        "SELECT seg, COUNT(*), SUM(v) FROM cust, ord, li WHERE cust.ck = ord.ck AND li.ok = ord.ok AND od < 500"
                + " GROUP BY seg ORDER BY seg",
        "SELECT li.ok, SUM(v) FROM li JOIN ord ON li.ok = ord.ok JOIN cust ON ord.ck = cust.ck WHERE seg = 'S1'"
                + " GROUP BY li.ok ORDER BY 2 DESC, 1 LIMIT 20",
        "SELECT nname, SUM(v - cost) FROM li JOIN ps ON ps.sk = li.sk AND ps.pk = li.pk JOIN ord ON li.ok = ord.ok"
                + " JOIN cust ON ord.ck = cust.ck JOIN nat ON cust.nk = nat.nk GROUP BY nname ORDER BY nname",
        "SELECT COUNT(*), SUM(cost) FROM li JOIN ps ON li.pk = ps.pk AND li.sk = ps.sk WHERE cost > 50",
        "SELECT ord.ok, tp, od, cust.ck, SUM(v) FROM li JOIN ord ON li.ok = ord.ok JOIN cust ON ord.ck = cust.ck"
                + " GROUP BY ord.ok, tp, od, cust.ck ORDER BY 5 DESC, 1 LIMIT 20",
        "SELECT cust.ck, seg, nname, SUM(v), MIN(tp) FROM li JOIN ord ON li.ok = ord.ok JOIN cust ON ord.ck = cust.ck"
                + " JOIN nat ON cust.nk = nat.nk WHERE od < 300 GROUP BY cust.ck, seg, nname ORDER BY 4 DESC, 1 LIMIT 20",
        "SELECT tp, COUNT(*) FROM li JOIN ord ON li.ok = ord.ok GROUP BY tp ORDER BY 2 DESC, 1 LIMIT 10",
    };

    private DuckDb duck;
    private Cube cube;
    private final SplittableRandom rnd = new SplittableRandom(16);

    @BeforeEach
    void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        load(nations(0, 20));
        load(customers(0, 3_000));
        load(orders(0, ORDERS - 5_000));
        load(partSupp());
        load(lines(200_000, ORDERS));
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void chainsOfTheDeclaredJoinsArePreparedOncePerChain() {
        List<JoinSpec> declared = DECLARED.stream().map(JoinSpec::parse).toList();
        List<String> chains =
                JoinChain.of(declared).stream().map(JoinChain::toString).toList();
        assertEquals(List.of("li -> ord -> cust", "li -> ord -> cust -> nat", "ord -> cust -> nat"), chains);
        assertEquals(3, cube.prepareJoinChains(declared).size());
    }

    @Test
    void aTwoColumnJoinDeclaredInOneOrderIsFoundInTheOther() {
        Cube.JoinPrepared first = cube.prepareJoin(JoinSpec.parse("li.pk+sk=ps.pk+sk"));
        assertTrue(first.codedBytes() > 0, "the pairs coded: " + first);
        Cube.JoinPrepared reversed = cube.prepareJoin(JoinSpec.parse("li.sk+pk=ps.sk+pk"));
        assertEquals(0, reversed.codedBytes(), "the same composite: " + reversed);
    }

    @Test
    void aWriteBuildsThePreparedJoinsAgainInTheBackground() throws Exception {
        List<JoinSpec> declared = DECLARED.stream().map(JoinSpec::parse).toList();
        declared.forEach(cube::prepareJoin);
        cube.prepareJoinChains(declared);
        append(lines(20_000, ORDERS));
        assertTrue(cube.preparedJoins().awaitIdle(120_000), "the refresh ended");
        assertTrue(cube.preparedJoins().refreshes() >= 1, "a refresh ran");
        Cube.JoinPrepared again = cube.prepareJoin(JoinSpec.parse("li.ok=ord.ok"));
        assertEquals(0, again.codedBytes(), "the new version's order key was coded in the background: " + again);
        compareAll("after the background refresh");
        delete("DELETE FROM cust WHERE ck % 5 = 0");
        compareAll("customers deleted, perhaps while the refresh runs");
        assertTrue(cube.preparedJoins().awaitIdle(120_000), "the refresh ended");
        compareAll("customers deleted, refreshed");
    }

    @Test
    void preparedChainsAnswerAsDuckDbAfterEveryWrite() throws Exception {
        List<JoinSpec> declared = DECLARED.stream().map(JoinSpec::parse).toList();
        declared.forEach(cube::prepareJoin);
        cube.prepareJoinChains(declared);
        compareAll("prepared");
        append(orders(ORDERS - 5_000, ORDERS));
        compareAll("orders that lines had no match for appended");
        append(customers(3_000, 3_500));
        append(nations(20, 25));
        compareAll("customers and nations appended");
        delete("DELETE FROM cust WHERE ck % 7 = 3");
        compareAll("customers deleted");
        delete("DELETE FROM ps WHERE pk % 5 = 1");
        compareAll("partsupp rows deleted");
        append(lines(20_000, ORDERS + 1_000));
        compareAll("lines appended, some of orders not there");
        cube.prepareJoinChains(declared);
        compareAll("prepared again after the writes");
        delete("DELETE FROM ord WHERE ok % 3 = 0");
        compareAll("orders deleted after a preparation");
    }

    private void compareAll(String context) throws Exception {
        for (int run = 0; run < 2; run++) {
            for (String q : QUERIES) {
                QueryResult ours = cube.query(q);
                ResultComparator.assertSame(
                        context + ", run " + run + ": " + q,
                        ours,
                        duck.query(q),
                        0,
                        new boolean[ours.columnCount()],
                        true,
                        1e-9);
            }
        }
    }

    private void load(TableStaging t) throws Exception {
        cube.loadTable(t);
        duck.load(t);
    }

    /** Appends {@code t} to its table in the cube, and in DuckDB through a table of the batch and an INSERT. */
    private void append(TableStaging t) throws Exception {
        TableSchema schema = t.schema();
        cube.append(schema.name(), t);
        List<Object[]> rows = new java.util.ArrayList<>();
        for (int r = 0; r < t.rows(); r++) {
            Object[] row = new Object[schema.size()];
            for (int c = 0; c < schema.size(); c++) {
                row[c] = schema.column(c).type() == ColumnType.STRING
                        ? t.dictionary(c).stringAt(t.codes(c)[r])
                        : (Object) t.longs(c)[r];
            }
            rows.add(row);
        }
        duck.load(new TableSchema("batch", schema.columns()), rows);
        duck.execute("INSERT INTO " + schema.name() + " SELECT * FROM batch");
    }

    private void delete(String sql) throws Exception {
        cube.delete(sql);
        duck.execute(sql);
    }

    private TableStaging nations(int from, int to) {
        TableStaging t = new TableStaging(new TableSchema(
                "nat", List.of(ColumnSpec.of("nk", ColumnType.LONG), ColumnSpec.of("nname", ColumnType.STRING))));
        for (int k = from; k < to; k++) {
            t.setLong(0, k);
            t.setString(1, "N" + (k % 9));
            t.endRow();
        }
        return t;
    }

    private TableStaging customers(int from, int to) {
        TableStaging t = new TableStaging(new TableSchema(
                "cust",
                List.of(
                        ColumnSpec.of("ck", ColumnType.LONG),
                        ColumnSpec.of("nk", ColumnType.LONG),
                        ColumnSpec.of("seg", ColumnType.STRING))));
        for (int k = from; k < to; k++) {
            t.setLong(0, k);
            t.setLong(1, rnd.nextInt(25));
            t.setString(2, "S" + rnd.nextInt(4));
            t.endRow();
        }
        return t;
    }

    private TableStaging orders(int from, int to) {
        TableStaging t = new TableStaging(new TableSchema(
                "ord",
                List.of(
                        ColumnSpec.of("ok", ColumnType.LONG),
                        ColumnSpec.of("ck", ColumnType.LONG),
                        ColumnSpec.of("od", ColumnType.LONG),
                        ColumnSpec.of("tp", ColumnType.LONG))));
        for (int k = from; k < to; k++) {
            t.setLong(0, k);
            t.setLong(1, rnd.nextInt(3_500));
            t.setLong(2, rnd.nextInt(1_000));
            t.setLong(3, rnd.nextLong(-1_000_000_000L, 1_000_000_000L));
            t.endRow();
        }
        return t;
    }

    private TableStaging partSupp() {
        TableStaging t = new TableStaging(new TableSchema(
                "ps",
                List.of(
                        ColumnSpec.of("pk", ColumnType.LONG),
                        ColumnSpec.of("sk", ColumnType.LONG),
                        ColumnSpec.of("cost", ColumnType.LONG))));
        for (int p = 0; p < 500; p++) {
            for (int s = 0; s < 4; s++) {
                t.setLong(0, p);
                t.setLong(1, (p + s * 37) % 100);
                t.setLong(2, rnd.nextInt(100));
                t.endRow();
            }
        }
        return t;
    }

    private TableStaging lines(int rows, int orderKeys) {
        TableStaging t = new TableStaging(new TableSchema(
                "li",
                List.of(
                        ColumnSpec.of("ok", ColumnType.LONG),
                        ColumnSpec.of("pk", ColumnType.LONG),
                        ColumnSpec.of("sk", ColumnType.LONG),
                        ColumnSpec.of("v", ColumnType.LONG))));
        for (int r = 0; r < rows; r++) {
            int p = rnd.nextInt(520);
            t.setLong(0, rnd.nextInt(orderKeys));
            t.setLong(1, p);
            t.setLong(2, (p + rnd.nextInt(5) * 37) % 100);
            t.setLong(3, rnd.nextInt(1_000));
            t.endRow();
        }
        return t;
    }
}
