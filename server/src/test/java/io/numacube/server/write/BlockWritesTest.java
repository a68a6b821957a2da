package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The UPDATEs and DELETEs of a transaction block, and of a pgjdbc batch outside one, over a real server: kept until
 * COMMIT (or Sync) and applied as one write, all or none, as PostgreSQL; each tried once on the block's trial of the
 * writes before it, so a block of n of them costs n applications (counted by {@link WriteService#trialApplications},
 * not timed); the trial built again when another session committed meanwhile or a savepoint was rolled back to. The
 * rows a block leaves are compared with the same statements computed here, one by one, on plain Java arrays.
 */
class BlockWritesTest {

    private static final int ROWS = 10;

    private Cube cube;
    private WriteService writes;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,desk:string,qty:double"));
        for (int i = 0; i < ROWS; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 3));
            t.setDouble(2, i * 0.5);
            t.endRow();
        }
        cube.loadTable(t);
        writes = new WriteService(cube, WriteService.BatchLog.NONE);
        server = NumacubeServer.start(ServerOptions.defaults("test").withPorts(0, 0), writes, new ServerMetrics());
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test");
    }

    private String table() {
        QueryResult r = cube.query("SELECT id, desk, qty FROM t ORDER BY id");
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            rows.add(r.getLong(i, 0) + "," + r.getString(i, 1) + "," + r.getDouble(i, 2));
        }
        return String.join(" ", rows);
    }

    /**
     * A block without writes (BEGIN; SELECT; COMMIT, a read-only pgjdbc transaction, psycopg's transaction() around
     * reads) logs nothing: its COMMIT submitted a write of no batch, which the WAL refuses (an internal error, XX000,
     * at every such COMMIT of a server with --data-dir).
     */
    @Test
    void aBlockWithoutWritesLogsNothingAtCommit() throws Exception {
        server.close();
        List<Integer> logged = new ArrayList<>();
        writes = new WriteService(cube, batches -> logged.add(batches.size()));
        server = NumacubeServer.start(ServerOptions.defaults("test").withPorts(0, 0), writes, new ServerMetrics());
        String before = table();
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("BEGIN");
            s.executeQuery("SELECT count(*) FROM t").close();
            s.execute("COMMIT");
            s.execute("BEGIN; SAVEPOINT a; COMMIT");
            c.setAutoCommit(false);
            s.executeQuery("SELECT count(*) FROM t").close();
            c.commit();
            s.executeUpdate("UPDATE t SET qty = 1 WHERE id = 1");
            c.commit();
        }
        assertEquals(List.of(1), logged, "one write, the UPDATE's");
        assertTrue(!before.equals(table()));
    }

    /**
     * PostgreSQL runs a pgjdbc batch in autocommit as one implicit transaction: a statement that fails rolls the
     * earlier ones back. numacube applied each UPDATE and DELETE of such a batch at once, so the first ones stayed.
     */
    @Test
    void aBatchOfUpdatesAndDeletesThatFailsPartWayAppliesNone() throws Exception {
        String before = table();
        try (Connection c = connect();
                PreparedStatement up = c.prepareStatement("UPDATE t SET qty = qty + ? WHERE id = ?");
                Statement s = c.createStatement()) {
            for (String id : List.of("1", "2", "x", "3")) {
                up.setDouble(1, 10);
                up.setObject(2, id, Types.OTHER);
                up.addBatch();
            }
            assertThrows(SQLException.class, up::executeBatch, "a bad parameter in the third");
            assertEquals(before, table(), "the first two UPDATEs were rolled back");
            s.addBatch("UPDATE t SET qty = 100 WHERE id = 1");
            s.addBatch("DELETE FROM t WHERE id = 2");
            s.addBatch("UPDATE t SET nosuch = 1 WHERE id = 3");
            s.addBatch("DELETE FROM t WHERE id = 4");
            assertThrows(SQLException.class, s::executeBatch, "an unknown column in the third");
            assertEquals(before, table(), "the UPDATE and the DELETE before it were rolled back");
            assertEquals(1, cube.version("t"));
            for (long id : new long[] {1, 2, 1}) {
                up.setDouble(1, 10);
                up.setLong(2, id);
                up.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, up.executeBatch());
            assertEquals(2, cube.version("t"), "the batch is one write");
        }
        double[] qty = initialQty();
        qty[1] += 20;
        qty[2] += 10;
        assertEquals(expected(qty, initialDesks()), table());
    }

    @Test
    void manyUpdatesInABlockOrABatchLeaveWhatApplyingThemOneByOneDoesEachTriedOnce() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        double[] qty = initialQty();
        String[] desk = initialDesks();
        int n = 300;
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            long applications = writes.trialApplications();
            for (int i = 0; i < n; i++) {
                assertEquals(1, s.executeUpdate(update(i, random, qty, desk)), "seed=" + seed);
            }
            assertEquals(n, writes.trialApplications() - applications, "each UPDATE tried once, seed=" + seed);
            assertEquals(1, cube.version("t"), "nothing before COMMIT");
            long published = writes.publishedTrials();
            c.commit();
            assertEquals(published + 1, writes.publishedTrials(), "COMMIT published the trial, seed=" + seed);
            assertEquals(expected(qty, desk), table(), "seed=" + seed);
            c.setAutoCommit(true);
            applications = writes.trialApplications();
            for (int i = 0; i < n; i++) {
                s.addBatch(update(i, random, qty, desk));
            }
            int[] counts = s.executeBatch();
            assertEquals(n, counts.length);
            assertEquals(n, java.util.Arrays.stream(counts).sum(), "one row each, seed=" + seed);
            assertEquals(n, writes.trialApplications() - applications, "each UPDATE tried once, seed=" + seed);
            assertEquals(
                    cube.version("t") - 2,
                    writes.publishedTrials() - published - 1,
                    "each Sync's write published from its trial, seed=" + seed);
            assertEquals(0, writes.reappliedBlocks(), "seed=" + seed);
            assertTrue(
                    cube.version("t") - 2 <= (n + 255) / 256,
                    "one write per Sync: pgjdbc sends one every 256 statements or so (and PostgreSQL commits there too)");
            assertEquals(expected(qty, desk), table(), "seed=" + seed);
        }
    }

    /**
     * Another session commits between two statements of a block: the block's next statement reads it (each statement
     * of a block reads the rows committed when it runs, as in PostgreSQL's READ COMMITTED), the trial being built again
     * on the new version, and COMMIT applies the block's statements after it.
     */
    @Test
    void aCommitOfAnotherSessionBetweenTwoStatementsIsReadByTheNext() throws Exception {
        try (Connection a = connect();
                Statement sa = a.createStatement();
                Connection b = connect();
                Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            long applications = writes.trialApplications();
            assertEquals(1, sa.executeUpdate("UPDATE t SET qty = qty + 1 WHERE id = 1"));
            assertEquals(1, sb.executeUpdate("UPDATE t SET qty = 100 WHERE id = 2"));
            assertEquals(2, sa.executeUpdate("UPDATE t SET qty = qty * 2 WHERE qty >= 1.5 AND id < 3"));
            assertEquals(1, sb.executeUpdate("INSERT INTO t (id, desk, qty) VALUES (50, 'B', 7)"));
            assertEquals(1, sa.executeUpdate("DELETE FROM t WHERE id = 50"), "sees the other session's row");
            assertEquals(1, sa.executeUpdate("UPDATE t SET desk = 'A' WHERE id = 1"));
            assertEquals(1 + 2 + 3 + 1, writes.trialApplications() - applications, "built again after each commit");
            try (var rs = sb.executeQuery("SELECT qty, desk FROM t WHERE id = 1")) {
                rs.next();
                assertEquals(0.5, rs.getDouble(1), 0.0, "the other session sees nothing of the block");
                assertEquals("D1", rs.getString(2));
            }
            a.commit();
        }
        double[] qty = initialQty();
        String[] desk = initialDesks();
        qty[1] = (qty[1] + 1) * 2;
        qty[2] = 100 * 2;
        desk[1] = "A";
        assertEquals(expected(qty, desk), table());
    }

    /**
     * COMMIT publishes the block's trial, the INSERT after its last UPDATE applied to it first, when no other write came
     * after the trial was built; when another session committed after the block's last statement, COMMIT applies the
     * block's statements again, after that commit (as it did before trials were published).
     */
    @Test
    void aCurrentTrialIsPublishedAtCommitAndOneAnotherCommitOvertookIsAppliedAgain() throws Exception {
        try (Connection a = connect();
                Statement sa = a.createStatement();
                Connection b = connect();
                Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            long applications = writes.trialApplications();
            assertEquals(1, sa.executeUpdate("UPDATE t SET qty = qty + 1 WHERE id = 1"));
            assertEquals(1, sa.executeUpdate("INSERT INTO t (id, desk, qty) VALUES (20, 'N', 2)"));
            a.commit();
            assertEquals(List.of(1L, 0L), List.of(writes.publishedTrials(), writes.reappliedBlocks()));
            assertEquals(2, writes.trialApplications() - applications, "the INSERT applied to the trial at COMMIT");
            assertEquals(2, cube.version("t"), "one write");
            assertEquals(2, sa.executeUpdate("UPDATE t SET qty = qty * 10 WHERE qty >= 4 AND id < 20"), "ids 8, 9");
            assertEquals(1, sb.executeUpdate("UPDATE t SET qty = 50 WHERE id = 3"));
            a.commit();
            assertEquals(List.of(1L, 1L), List.of(writes.publishedTrials(), writes.reappliedBlocks()));
            assertEquals(4, cube.version("t"));
        }
        double[] qty = initialQty();
        qty[1] += 1;
        qty[3] = 500;
        qty[8] *= 10;
        qty[9] *= 10;
        assertEquals(expected(qty, initialDesks()) + " 20,N,2.0", table());
    }

    /**
     * Blocks of three sessions' trials committed while a fourth writer commits single writes: each block moves amounts
     * between rows (+k on one, -k on another), so a reader that saw part of a block, or a block published from a trial
     * built before another write (losing that write), would find another total or other rows. Whether each block was
     * published from its trial or applied again, every row ends as the sum of the amounts moved to it.
     */
    @Test
    void concurrentBlocksLoseNoOtherWriteAndAreNeverSeenInPart() throws Exception {
        long seed = System.nanoTime();
        String total = "SELECT SUM(qty) FROM t";
        double sum = cube.query(total).getDouble(0, 0);
        java.util.concurrent.atomic.AtomicLongArray moved = new java.util.concurrent.atomic.AtomicLongArray(ROWS);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Random random = new Random(seed + w);
            boolean blocks = w < 3;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int b = 0; b < 40; b++) {
                        List<WriteService.Batch> block = new ArrayList<>();
                        try (BlockTrial trial = writes.openTrial()) {
                            for (int j = 1 + random.nextInt(3); j > 0; j--) {
                                int from = random.nextInt(ROWS);
                                int to = random.nextInt(ROWS);
                                int k = 1 + random.nextInt(5);
                                block.add(WriteService.update("UPDATE t SET qty = qty - " + k + " WHERE id = " + from));
                                block.add(WriteService.update("UPDATE t SET qty = qty + " + k + " WHERE id = " + to));
                                moved.addAndGet(from, -k);
                                moved.addAndGet(to, k);
                                if (blocks) {
                                    writes.trialRows(trial, block.subList(0, block.size() - 1));
                                    assertEquals(1, writes.trialRows(trial, block));
                                }
                            }
                            if (blocks) {
                                writes.commit(trial, block);
                            } else {
                                writes.commit(block);
                            }
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        Thread reader = Thread.ofPlatform().start(() -> {
            while (!done.get()) {
                double seen = cube.query(total).getDouble(0, 0);
                if (seen != sum) {
                    errors.add(new AssertionError("a block seen in part: total " + seen + " not " + sum));
                }
            }
        });
        for (Thread t : threads) {
            t.join();
        }
        done.set(true);
        reader.join();
        assertEquals(List.of(), errors, "seed=" + seed);
        double[] qty = initialQty();
        for (int i = 0; i < ROWS; i++) {
            qty[i] += moved.get(i);
        }
        assertEquals(expected(qty, initialDesks()), table(), "seed=" + seed);
        assertEquals(120, writes.publishedTrials() + writes.reappliedBlocks(), "seed=" + seed);
        assertTrue(writes.publishedTrials() > 0, "seed=" + seed);
        System.out.printf(
                "concurrent blocks: seed=%d published=%d applied again=%d%n",
                seed, writes.publishedTrials(), writes.reappliedBlocks());
    }

    /**
     * {@code now()} inside a transaction block, explicit or a pgjdbc batch's implicit one, is the block's start, the same
     * for each of its statements (SELECTs, and the UPDATEs that store it), as PostgreSQL's transaction timestamp;
     * outside a block each statement reads the clock itself.
     */
    @Test
    void nowInsideABlockIsTheBlocksStartForEachOfItsStatements() throws Exception {
        String now = "SELECT CAST(CAST(now() AS TIMESTAMP) AS VARCHAR) FROM t WHERE id = 0";
        String stamp = "UPDATE t SET desk = CAST(CAST(now() AS TIMESTAMP) AS VARCHAR) WHERE id = ";
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            String start = text(s, now);
            Thread.sleep(20);
            assertEquals(1, s.executeUpdate(stamp + 1));
            Thread.sleep(20);
            assertEquals(1, s.executeUpdate("UPDATE t SET desk = CAST(current_date AS VARCHAR) WHERE id = 4"));
            assertEquals(start, text(s, now), "the block's start, not the statement's");
            c.commit();
            assertEquals(start, text(s, "SELECT desk FROM t WHERE id = 1"));
            assertEquals(start.substring(0, 10), text(s, "SELECT desk FROM t WHERE id = 4"));
            String next = text(s, now);
            assertTrue(next.compareTo(start) > 0, "a new block starts anew: " + start + " then " + next);
            c.commit();
            c.setAutoCommit(true);
            s.addBatch(stamp + 2);
            s.addBatch("UPDATE t SET qty = qty WHERE id = 9");
            s.addBatch(stamp + 3);
            s.executeBatch();
            assertEquals(text(s, "SELECT desk FROM t WHERE id = 2"), text(s, "SELECT desk FROM t WHERE id = 3"));
            String one = text(s, now);
            Thread.sleep(20);
            assertTrue(text(s, now).compareTo(one) > 0, "outside a block each statement reads the clock");
            s.execute("BEGIN");
            java.time.LocalDateTime begun = java.time.LocalDateTime.now();
            Thread.sleep(20);
            try (var rs = s.executeQuery("SELECT CAST(now() AS TIMESTAMP) FROM t WHERE id = 0")) {
                assertTrue(rs.next());
                java.time.LocalDateTime read = rs.getTimestamp(1).toLocalDateTime();
                assertTrue(!read.isAfter(begun), "BEGIN's time: " + read + " is after " + begun);
            }
            s.execute("COMMIT");
        }
    }

    private static String text(Statement s, String sql) throws SQLException {
        try (var rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    @Test
    void rollingBackToASavepointDropsTheUpdatesSinceIt() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertEquals(5, s.executeUpdate("UPDATE t SET qty = 11 WHERE id < 5"));
            Savepoint first = c.setSavepoint("first");
            assertEquals(3, s.executeUpdate("UPDATE t SET qty = 12 WHERE qty = 11 AND id < 3"));
            assertEquals(2, s.executeUpdate("UPDATE t SET qty = 13 WHERE qty = 11"));
            c.rollback(first);
            assertEquals(5, s.executeUpdate("UPDATE t SET qty = 14 WHERE qty = 11"), "the rolled-back ones are gone");
            Savepoint second = c.setSavepoint();
            assertEquals(2, s.executeUpdate("DELETE FROM t WHERE qty = 14 AND id > 2"));
            assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE t SET nosuch = 1"));
            c.rollback(second);
            assertEquals(5, s.executeUpdate("UPDATE t SET desk = 'S' WHERE qty = 14"), "the DELETE is gone too");
            c.releaseSavepoint(second);
            assertEquals(1, cube.version("t"));
            c.commit();
        }
        double[] qty = initialQty();
        String[] desk = initialDesks();
        for (int i = 0; i < 5; i++) {
            qty[i] = 14;
            desk[i] = "S";
        }
        assertEquals(expected(qty, desk), table());
        assertEquals(2, cube.version("t"), "COMMIT is one write");
    }

    /** A random single-row UPDATE, also applied to {@code qty} and {@code desk}: the independent computation. */
    private static String update(int i, Random random, double[] qty, String[] desk) {
        int id = random.nextInt(ROWS);
        switch (random.nextInt(3)) {
            case 0 -> {
                qty[id] = qty[id] * 2;
                return "UPDATE t SET qty = qty * 2 WHERE id = " + id;
            }
            case 1 -> {
                desk[id] = "U" + i;
                qty[id] = qty[id] - 1;
                return "UPDATE t SET desk = 'U" + i + "', qty = qty - 1 WHERE id = " + id;
            }
            default -> {
                qty[id] = qty[id] + i + 0.25;
                return "UPDATE t SET qty = qty + " + i + ".25 WHERE id = " + id;
            }
        }
    }

    private static double[] initialQty() {
        double[] qty = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            qty[i] = i * 0.5;
        }
        return qty;
    }

    private static String[] initialDesks() {
        String[] desk = new String[ROWS];
        for (int i = 0; i < ROWS; i++) {
            desk[i] = "D" + (i % 3);
        }
        return desk;
    }

    private static String expected(double[] qty, String[] desk) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (desk[i] != null) {
                rows.add(i + "," + desk[i] + "," + qty[i]);
            }
        }
        return String.join(" ", rows);
    }
}
