package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A block's trial published as it is ({@link Cube#publishTrial}) against the same block applied again ({@link
 * Cube#write}) on a twin cube, and against DuckDB running the block as a transaction: random blocks of INSERTs (new
 * text values), UPDATEs (text to new values, WHERE subqueries on the table) and DELETEs over two tables (u keyed: its
 * INSERTs are upserts, so DuckDB, which has no such table here, checks t only), some failing
 * part-way (then neither cube changes), some with another write landing between the trial and its publish (then the
 * trial is refused and the block applied again after that write), and plain writes after each block, which grow the
 * dictionaries the published versions left. Every write's rows and version, and the tables, must be the same.
 */
class TrialPublishTest {

    private static final TableSchema T = TableSchema.parse("t", "k:long,v:long,d:string");
    private static final TableSchema U = TableSchema.parse("u", "k:long,w:long,e:string");
    private static final List<String> STATES =
            List.of("SELECT k, v, d FROM t ORDER BY k, v, d", "SELECT k, w, e FROM u ORDER BY k, w, e");

    @Test
    void aPublishedTrialLeavesWhatApplyingItsBlockAgainLeaves() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int published = 0;
        int refused = 0;
        int failed = 0;
        try (Cube once = cube();
                Cube twice = cube();
                DuckDb duck = new DuckDb();
                WriteTrial trial = once.openTrial()) {
            duck.load(rows(T, 0, 60));
            duck.load(rows(U, 0, 40));
            int serial = 0;
            for (int b = 0; b < 40; b++) {
                String context = "block " + b + ", seed=" + seed;
                List<String> statements = new ArrayList<>();
                List<TableWrite> block = new ArrayList<>();
                boolean fails = false;
                int n = 1 + random.nextInt(10);
                for (int i = 0; i < n && !fails; i++) {
                    String sql = statement(serial++, random);
                    statements.add(sql);
                    block.add(write(sql));
                    try {
                        once.trial(trial, block);
                    } catch (NumacubeException e) {
                        fails = true;
                    }
                }
                if (fails) {
                    failed++;
                    assertEquals(0, trial.writes(), context);
                    assertThrows(NumacubeException.class, () -> twice.write(block), context);
                    assertSame(once, twice, context);
                    continue;
                }
                if (random.nextInt(4) == 0) {
                    String other = insert(serial++, random);
                    once.write(List.of(write(other)));
                    twice.write(List.of(write(other)));
                    duck.execute(other);
                    assertFalse(once.isCurrent(trial), context);
                    assertEquals(Optional.empty(), once.publishTrial(trial, block.size()), context);
                    assertEquals(block.size(), trial.writes(), "a refused trial is kept as it was, " + context);
                    trial.reset();
                    assertEquals(twice.write(block), once.write(block), context);
                    refused++;
                } else {
                    assertTrue(once.isCurrent(trial), context);
                    assertEquals(
                            Optional.empty(),
                            once.publishTrial(trial, block.size() + 1),
                            "a trial of other writes is not published, " + context);
                    List<WriteResult> ours =
                            once.publishTrial(trial, block.size()).orElse(null);
                    assertNotNull(ours, context);
                    assertEquals(0, trial.writes(), "a published trial is empty, " + context);
                    assertEquals(twice.write(block), ours, context);
                    published++;
                }
                duck.execute("BEGIN");
                for (String sql : statements) {
                    duck.execute(sql);
                }
                duck.execute("COMMIT");
                if (random.nextBoolean()) {
                    String after = insert(serial++, random);
                    once.write(List.of(write(after)));
                    twice.write(List.of(write(after)));
                    duck.execute(after);
                }
                assertSame(once, twice, context);
                assertSameAsDuckDb(once, duck, context);
            }
        }
        System.out.printf(
                "trial publish test: seed=%d published=%d refused=%d failed=%d%n", seed, published, refused, failed);
        assertTrue(published > 0 && refused > 0, "seed=" + seed + " published=" + published + " refused=" + refused);
    }

    @Test
    void aTrialBuiltUnderAnotherKeyOrBeforeAnotherPublishIsNotPublished() {
        try (Cube cube = cube();
                WriteTrial trial = cube.openTrial()) {
            List<TableWrite> block = List.of(new TableUpdate("UPDATE t SET v = 0 WHERE k < 5"));
            cube.trial(trial, block);
            cube.setKey("u", List.of("k"));
            assertFalse(cube.isCurrent(trial));
            assertEquals(Optional.empty(), cube.publishTrial(trial, 1));
            cube.trial(trial, block);
            cube.write(List.of(new TableDelete("DELETE FROM u WHERE k = 1")));
            assertEquals(Optional.empty(), cube.publishTrial(trial, 1), "a write to another table moved the cube on");
            assertEquals(1, cube.version("t"));
            cube.trial(trial, block);
            assertEquals(2, cube.publishTrial(trial, 1).orElseThrow().getFirst().version());
            assertEquals(0, cube.query("SELECT SUM(v) FROM t WHERE k < 5").getLong(0, 0));
        }
    }

    /**
     * The cube's own next append grows the dictionaries the published trial left: its new text values get codes after
     * the trial's, so no row of either reads another's value.
     */
    @Test
    void anAppendAfterAPublishedTrialCodesItsNewValuesAfterTheTrials() {
        try (Cube cube = cube();
                WriteTrial trial = cube.openTrial()) {
            cube.write(List.of(write("INSERT INTO t VALUES (100, 1, 'a1')")));
            cube.trial(
                    trial,
                    List.of(
                            write("INSERT INTO t VALUES (101, 2, 'b1'), (102, 3, 'b2')"),
                            new TableUpdate("UPDATE t SET d = 'b3' WHERE k = 100")));
            cube.publishTrial(trial, 2).orElseThrow();
            cube.write(List.of(write("INSERT INTO t VALUES (103, 4, 'c1'), (104, 5, 'c2')")));
            assertEquals(
                    "k | d\n100 | b3\n101 | b1\n102 | b2\n103 | c1\n104 | c2\n",
                    cube.query("SELECT k, d FROM t WHERE k >= 100 ORDER BY k").toString());
            assertEquals(
                    2,
                    cube.query("SELECT COUNT(*) FROM t WHERE d IN ('c1', 'b1')").getLong(0, 0));
        }
    }

    private static void assertSame(Cube once, Cube twice, String context) {
        for (String state : STATES) {
            assertEquals(twice.query(state).toString(), once.query(state).toString(), context);
        }
        assertEquals(twice.version("t"), once.version("t"), context);
        assertEquals(twice.version("u"), once.version("u"), context);
    }

    private static void assertSameAsDuckDb(Cube cube, DuckDb duck, String context) throws Exception {
        String state = STATES.getFirst();
        QueryResult ours = cube.query(state);
        ResultComparator.assertSame(
                context + ": " + state, ours, duck.query(state), 0, new boolean[ours.columnCount()], true, 0);
    }

    /**
     * A random write of either table: an INSERT of new text values, an UPDATE of a number or of text (to a new value,
     * or by a subquery of its own table), a DELETE (some by a subquery), or one that fails.
     */
    private static String statement(int i, Random random) {
        int k = random.nextInt(70);
        String table = random.nextInt(3) == 0 ? "u" : "t";
        String num = table.equals("t") ? "v" : "w";
        String text = table.equals("t") ? "d" : "e";
        return switch (random.nextInt(9)) {
            case 0 -> insert(i, random);
            case 1 -> "DELETE FROM " + table + " WHERE k = " + k;
            case 2 ->
                "DELETE FROM " + table + " WHERE " + num + " > (SELECT AVG(" + num + ") + 100 FROM " + table + ")";
            case 3 ->
                "UPDATE " + table + " SET " + text + " = 'u" + i + "', " + num + " = " + num + " * 2 WHERE " + num
                        + " > " + (10 * k);
            case 4 ->
                "UPDATE " + table + " SET " + text + " = " + text + " || 'x' WHERE k IN (SELECT k FROM " + table
                        + " WHERE " + text + " = 'd" + (k % 7) + "')";
            case 5 -> random.nextInt(4) == 0 ? "UPDATE " + table + " SET nosuch = 1" : "DELETE FROM t WHERE k = -1";
            default -> "UPDATE " + table + " SET " + num + " = " + num + " + " + i + " WHERE k = " + k;
        };
    }

    /** An INSERT of two rows into either table, with a new text value and a key that may exist already. */
    private static String insert(int i, Random random) {
        String table = random.nextBoolean() ? "u" : "t";
        return "INSERT INTO " + table + " VALUES (" + (1000 + i) + ", " + i + ", 'n" + i + "'), (" + random.nextInt(70)
                + ", " + -i + ", 'm" + i + "')";
    }

    private static TableWrite write(String sql) {
        if (sql.startsWith("DELETE")) {
            return new TableDelete(sql);
        }
        if (sql.startsWith("UPDATE")) {
            return new TableUpdate(sql);
        }
        String table = sql.substring("INSERT INTO ".length(), sql.indexOf(" VALUES"));
        String[] values = sql.substring(sql.indexOf("VALUES") + 7).split("\\), \\(");
        TableStaging st = new TableStaging(table.equals("t") ? T : U);
        for (String row : values) {
            String[] f = row.replace("(", "").replace(")", "").split(", ");
            st.setLong(0, Long.parseLong(f[0]));
            st.setLong(1, Long.parseLong(f[1]));
            st.setString(2, f[2].replace("'", ""));
            st.endRow();
        }
        return new TableBatch(table, st);
    }

    private static Cube cube() {
        Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        cube.loadTable(rows(T, 0, 60));
        cube.loadTable(rows(U, 0, 40));
        cube.setKey("u", List.of("k"));
        return cube;
    }

    /** Rows k in [from, to): 10k, then 'd' || k % 7. */
    private static TableStaging rows(TableSchema schema, int from, int to) {
        TableStaging st = new TableStaging(schema);
        for (int k = from; k < to; k++) {
            st.setLong(0, k);
            st.setLong(1, 10L * k);
            st.setString(2, "d" + (k % 7));
            st.endRow();
        }
        return st;
    }
}
