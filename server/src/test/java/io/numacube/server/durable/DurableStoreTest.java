package io.numacube.server.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.wal.DataDirectory;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.wal.WriteAheadLog;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.BlockTrial;
import io.numacube.server.write.WriteService;
import io.numacube.server.write.WriteService.Batch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints and recovery of a data directory, in-process: a restart gives back exactly the acknowledged writes
 * (the checkpoint's and the WAL's after it, also while writers and checkpoints overlap), a damaged checkpoint or
 * manifest is an error naming the file, a torn WAL tail is cut and not replayed, and what a checkpoint covers leaves
 * the WAL. A "crash" here closes the store without a last checkpoint; {@code ServeCrashTest} in the cli kills a real
 * server.
 */
class DurableStoreTest {

    private static final TableSchema T = TableSchema.parse("t", "b:long,id:long,desk:string,px:decimal(12,2),day:date");
    private static final TableSchema U = TableSchema.parse("U", "k:string,n:long");
    private static final TableSchema EMPTY = TableSchema.parse("empty", "x:double,s:string");
    private static final List<String> QUERIES = List.of(
            "SELECT COUNT(*), SUM(id), SUM(px), MIN(day), MAX(day), COUNT(desk) FROM t",
            "SELECT b, COUNT(*), SUM(px) FROM t GROUP BY b ORDER BY b",
            "SELECT k, SUM(n), COUNT(*) FROM u GROUP BY k ORDER BY k",
            "SELECT COUNT(*), SUM(x) FROM empty");

    @TempDir
    Path root;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final AtomicInteger nextBatch = new AtomicInteger(1);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    private Path dir() {
        return root.resolve("data");
    }

    private DurableStore store(WalOptions wal) {
        return track(DurableStore.open(dir(), wal));
    }

    private Cube cube() {
        return track(Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1)));
    }

    /** A fresh data directory with tables t (batch 0: 100 rows), u and empty, checkpointed; returns the writes. */
    private WriteService firstStart(DurableStore store) {
        Cube cube = cube();
        TableStaging t = new TableStaging(T);
        for (int i = 0; i < 100; i++) {
            t.setLong(0, 0);
            t.setLong(1, i);
            t.setString(2, "D" + i % 7);
            t.setLong(3, 1000 + i);
            t.setDate(4, 19_000 + i % 30);
            t.endRow();
        }
        cube.loadTable(t);
        TableStaging u = new TableStaging(U);
        u.setString(0, "a");
        u.setLong(1, 1);
        u.endRow();
        cube.loadTable(u);
        cube.loadTable(new TableStaging(EMPTY));
        WriteService writes = new WriteService(cube, store.batchLog());
        DurableStore.Checkpointed c = store.checkpoint(writes);
        assertTrue(c.written());
        assertEquals(1, c.manifest().generation());
        assertEquals(0, c.manifest().lsn());
        return writes;
    }

    /** A batch of {@code rows} rows of t, all with a new batch number; returns that number. */
    private int writeBatch(WriteService writes, int rows) {
        int b = nextBatch.getAndIncrement();
        writes.append(new Batch("t", BatchFormat.CSV, csv(b, rows), "test batch " + b));
        return b;
    }

    private static byte[] csv(int b, int rows) {
        StringBuilder sb = new StringBuilder("id,b,desk,px,day\n");
        for (int i = 0; i < rows; i++) {
            sb.append(b * 1000 + i)
                    .append(',')
                    .append(b)
                    .append(",\"D,")
                    .append(b % 3)
                    .append("\",")
                    .append(i)
                    .append(".25,2025-01-")
                    .append(String.format("%02d", 1 + i % 28))
                    .append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> answers(Cube cube) {
        return QUERIES.stream().map(q -> cube.query(q).toString()).toList();
    }

    private WriteService recovered(DurableStore store) {
        WriteService writes = new WriteService(cube(), store.batchLog());
        store.recover(writes);
        return writes;
    }

    @Test
    void recoveryLoadsTheCheckpointAndReplaysTheWalAfterIt() {
        DurableStore store = store(WalOptions.defaults());
        assertFalse(store.holdsData());
        WriteService writes = firstStart(store);
        for (int i = 0; i < 5; i++) {
            writeBatch(writes, 1 + i * 10);
        }
        DurableStore.Checkpointed second = store.checkpoint(writes);
        assertEquals(5, second.manifest().lsn());
        assertEquals(2, second.manifest().generation());
        writeBatch(writes, 3);
        writes.commit(List.of(
                new Batch("t", BatchFormat.CSV, csv(nextBatch.getAndIncrement(), 4), "tx"),
                new Batch("u", BatchFormat.JSON_LINES, "{\"k\":\"b\",\"n\":5}\n{\"k\":\"a\"}\n".getBytes(), "tx")));
        List<String> before = answers(writes.cube());
        java.util.Map<String, Long> versions = new java.util.TreeMap<>();
        for (String t : writes.cube().tables()) {
            versions.put(t, writes.cube().version(t));
        }
        store.close();

        DurableStore again = store(WalOptions.defaults());
        assertTrue(again.holdsData());
        WriteService back = new WriteService(cube(), again.batchLog());
        DurableStore.Recovered r = again.recover(back);
        java.util.Map<String, Long> recoveredVersions = new java.util.TreeMap<>();
        for (String t : back.cube().tables()) {
            recoveredVersions.put(t, back.cube().version(t));
        }
        assertEquals(versions, recoveredVersions, "the tables' versions go on from where they were");
        assertEquals(List.of("U", "empty", "t"), r.tables());
        assertEquals(5, r.checkpointLsn());
        assertEquals(2, r.writes());
        assertEquals(3 + 4 + 2, r.rowsChanged());
        assertEquals(100 + 1 + (1 + 11 + 21 + 31 + 41), r.rowsLoaded());
        assertEquals(before, answers(back.cube()));
        assertEquals(
                List.of(
                        "checkpoint-00000002-0-u.csv",
                        "checkpoint-00000002-1-empty.csv",
                        "checkpoint-00000002-2-t.csv"),
                checkpointFiles(),
                "the first checkpoint's files were deleted");
    }

    @Test
    void keysUpsertsAndDeletesComeBackAsTheyWereApplied() {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        writes.cube().setKey("u", List.of("k"));
        DurableStore.Checkpointed keyed = store.checkpoint(writes);
        assertTrue(keyed.written(), "a new key is a new checkpoint even with no new write");
        assertEquals(List.of("k"), keyed.manifest().tables().getFirst().key());
        upsert(writes, "{\"k\":\"a\",\"n\":10}\n{\"k\":\"c\",\"n\":3}\n");
        writes.commit(List.of(WriteService.delete("DELETE FROM t WHERE id < 50")));
        writeBatch(writes, 30);
        store.checkpoint(writes);
        upsert(writes, "{\"k\":\"c\",\"n\":4}\n{\"k\":\"d\",\"n\":1}\n");
        writes.commit(List.of(WriteService.delete("DELETE FROM t WHERE b = 1 AND id % 2 = 0")));
        long logged = store.walStats().records();
        assertThrows(
                NumacubeException.class,
                () -> writes.commit(List.of(WriteService.delete("DELETE FROM t WHERE nosuch = 1"))));
        assertEquals(logged, store.walStats().records(), "a DELETE that fails is tried before it is logged");
        // as an older build logged it: replayed, it fails again and changes nothing
        store.batchLog().write(List.of(WriteService.delete("DELETE FROM t WHERE nosuch = 1")));
        writeBatch(writes, 5);
        List<String> before = answers(writes.cube());
        store.close();

        DurableStore again = store(WalOptions.defaults());
        WriteService back = new WriteService(cube(), again.batchLog());
        DurableStore.Recovered r = again.recover(back);
        assertEquals(4, r.writes());
        assertEquals(1, r.failedAlike(), "the DELETE naming an unknown column failed again, changing nothing");
        assertEquals(before, answers(back.cube()));
        assertEquals(List.of("k"), back.cube().keyColumns("u"));
        upsert(back, "{\"k\":\"d\",\"n\":7}\n");
        assertEquals(
                "1", back.cube().query("SELECT COUNT(*) FROM u WHERE k = 'd'").getString(0, 0), "still keyed");
    }

    @Test
    void updatesAreLoggedAsTheirStatementAndReplayedInOrder() {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        writes.commit(List.of(WriteService.update("UPDATE t SET desk = 'U', px = px * 2 WHERE id % 3 = 0")));
        writeBatch(writes, 20);
        writes.commit(List.of(WriteService.update("UPDATE public.t SET b = b + 100 WHERE desk = 'U'")));
        long logged = store.walStats().records();
        assertThrows(
                NumacubeException.class, () -> writes.commit(List.of(WriteService.update("UPDATE t SET nosuch = 1"))));
        assertEquals(logged, store.walStats().records(), "an UPDATE that fails is tried before it is logged");
        store.batchLog().write(List.of(WriteService.update("UPDATE t SET nosuch = 1")));
        List<String> before = answers(writes.cube());
        String updated = writes.cube()
                .query("SELECT COUNT(*), SUM(px), MIN(b) FROM t WHERE desk = 'U'")
                .toString();
        store.close();

        DurableStore again = store(WalOptions.defaults());
        WriteService back = new WriteService(cube(), again.batchLog());
        DurableStore.Recovered r = again.recover(back);
        assertEquals(4, r.writes());
        assertEquals(1, r.failedAlike(), "the UPDATE naming an unknown column failed again, changing nothing");
        assertEquals(before, answers(back.cube()));
        assertEquals(
                updated,
                back.cube()
                        .query("SELECT COUNT(*), SUM(px), MIN(b) FROM t WHERE desk = 'U'")
                        .toString());
    }

    private static void upsert(WriteService writes, String jsonLines) {
        writes.append(new Batch("u", BatchFormat.JSON_LINES, jsonLines.getBytes(StandardCharsets.UTF_8), "upsert"));
    }

    private List<String> checkpointFiles() {
        try (Stream<Path> files = Files.list(dir())) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("checkpoint-"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void writesDuringCheckpointsAreNeitherLostNorAppliedTwice() throws Exception {
        DurableStore store = store(WalOptions.defaults().withSegmentSizeBytes(16 << 10));
        WriteService writes = firstStart(store);
        Map<Integer, Integer> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Random rnd = new Random(w);
            writers.add(Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    int rows = 1 + rnd.nextInt(20);
                    acknowledged.put(writeBatch(writes, rows), rows);
                }
            }));
        }
        int checkpoints = 0;
        long end = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < end) {
            checkpoints += store.checkpoint(writes).written() ? 1 : 0;
        }
        stop.set(true);
        for (Thread t : writers) {
            t.join();
        }
        store.close();
        assertTrue(checkpoints >= 3, "checkpoints=" + checkpoints);

        Cube back = recovered(store(WalOptions.defaults())).cube();
        var counts = back.query("SELECT b, COUNT(*) FROM t WHERE b > 0 GROUP BY b ORDER BY b");
        Map<Integer, Integer> found = new TreeMap<>();
        for (int r = 0; r < counts.rowCount(); r++) {
            found.put((int) counts.getLong(r, 0), (int) counts.getLong(r, 1));
        }
        List<String> wrong = new ArrayList<>();
        for (int b : new java.util.TreeSet<>(acknowledged.keySet())) {
            if (!acknowledged.get(b).equals(found.get(b))) {
                wrong.add("batch " + b + ": rows=" + found.get(b) + " acknowledged=" + acknowledged.get(b));
            }
        }
        found.keySet().removeAll(acknowledged.keySet());
        found.forEach((b, rows) -> wrong.add("batch " + b + ": rows=" + rows + " never acknowledged"));
        assertEquals(List.of(), wrong, "checkpoints=" + checkpoints + " batches=" + acknowledged.size());
    }

    @Test
    void aFlippedByteInACheckpointFileIsAnErrorNamingIt() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        writeBatch(firstStart(store), 5);
        store.close();
        Path file = dir().resolve("checkpoint-00000001-2-t.csv");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x04;
        Files.write(file, bytes);

        DurableStore again = store(WalOptions.defaults());
        Cube cube = cube();
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> again.recover(new WriteService(cube, again.batchLog())));
        assertTrue(
                e.getMessage()
                        .startsWith("checkpoint is corrupt: file=" + file
                                + " reason=SHA-256 differs from the manifest: sha256="),
                e.getMessage());
        assertTrue(e.getMessage()
                .endsWith("— not loading a partial checkpoint; restore the data directory from a backup"));
        assertEquals("XX001", e.code());
        assertEquals(List.of(), cube.tables(), "no table is loaded from a damaged checkpoint");
    }

    @Test
    void aMissingOrShortenedCheckpointFileIsAnErrorNamingIt() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        firstStart(store);
        store.close();
        Path file = dir().resolve("checkpoint-00000001-0-u.csv");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 1));
        assertRecoveryFails("checkpoint is corrupt: file=" + file + " reason=size differs from the manifest: bytes="
                + (bytes.length - 1) + " expected=" + bytes.length);
        Files.delete(file);
        assertRecoveryFails(
                "checkpoint is corrupt: file=" + file + " reason=the file the manifest names is missing: table=U");
    }

    private void assertRecoveryFails(String message) {
        try (DurableStore again = DurableStore.open(dir(), WalOptions.defaults());
                Cube cube =
                        Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1))) {
            NumacubeException e = assertThrows(
                    NumacubeException.class, () -> again.recover(new WriteService(cube, again.batchLog())));
            assertTrue(e.getMessage().startsWith(message), e.getMessage());
        }
    }

    @Test
    void aDamagedManifestIsAnErrorNamingItAndReleasesTheDirectory() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        firstStart(store);
        store.close();
        Path manifest = dir().resolve(CheckpointManifest.FILE_NAME);
        String text = Files.readString(manifest);
        Files.writeString(manifest, text.replace("\"rows\":100", "\"rows\":900"));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> DurableStore.open(dir(), WalOptions.defaults()));
        assertTrue(
                e.getMessage()
                        .startsWith("checkpoint is corrupt: file=" + manifest + " reason=manifest checksum mismatch"),
                e.getMessage());
        Files.writeString(manifest, "numacube-checkpoint 7 crc32c=00000000\n{}");
        e = assertThrows(NumacubeException.class, () -> DurableStore.open(dir(), WalOptions.defaults()));
        assertTrue(e.getMessage().contains("reason=unknown manifest version: version=7 expected=1"), e.getMessage());
        DataDirectory.open(dir()).close();
    }

    @Test
    void aTornWalTailIsCutAndItsWriteIsNotReplayed() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        writeBatch(writes, 5);
        writeBatch(writes, 7);
        store.close();
        Path segment;
        try (Stream<Path> files = Files.list(dir().resolve(DataDirectory.WAL_DIRECTORY))) {
            segment = files.sorted().toList().getLast();
        }
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 10));

        Cube back = recovered(store(WalOptions.defaults())).cube();
        assertEquals(
                "b | count_star()\n1 | 5\n",
                back.query("SELECT b, COUNT(*) FROM t WHERE b > 0 GROUP BY b").toString());
    }

    @Test
    void aCheckpointTruncatesTheWalItCoversAndSkipsWhenNothingIsNew() throws IOException {
        DurableStore store = store(WalOptions.defaults().withSegmentSizeBytes(1024));
        WriteService writes = firstStart(store);
        for (int i = 0; i < 20; i++) {
            writeBatch(writes, 10);
        }
        assertTrue(walSegments() >= 8, "segments=" + walSegments());
        assertTrue(store.hasWritesSinceCheckpoint());
        assertTrue(store.walBytesSinceCheckpoint() > 20 * 300);
        DurableStore.Checkpointed c = store.checkpoint(writes);
        assertEquals(20, c.manifest().lsn());
        assertEquals(1, walSegments());
        assertFalse(store.hasWritesSinceCheckpoint());
        assertEquals(0, store.walBytesSinceCheckpoint());
        assertFalse(store.checkpoint(writes).written(), "nothing new: no checkpoint");
        assertEquals(2, store.manifest().orElseThrow().generation());
    }

    private long walSegments() throws IOException {
        try (Stream<Path> files = Files.list(dir().resolve(DataDirectory.WAL_DIRECTORY))) {
            return files.count();
        }
    }

    @Test
    void aWalWithoutTheRecordsAfterTheCheckpointIsRefused() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        writeBatch(writes, 1);
        store.checkpoint(writes);
        store.close();
        try (Stream<Path> files = Files.list(dir().resolve(DataDirectory.WAL_DIRECTORY))) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> DurableStore.open(dir(), WalOptions.defaults()));
        assertTrue(
                e.getMessage().startsWith("the WAL ends before the checkpoint: checkpoint-lsn=1 wal-durable-lsn=0"),
                e.getMessage());
    }

    @Test
    void aMissingManifestOverALogOfWritesIsRefusedAndTheCheckpointFilesAreKept() throws IOException {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        writeBatch(writes, 3);
        store.close();
        List<String> files = checkpointFiles();
        Files.delete(dir().resolve(CheckpointManifest.FILE_NAME));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> DurableStore.open(dir(), WalOptions.defaults()));
        assertEquals("XX001", e.code());
        assertTrue(
                e.getMessage()
                        .startsWith("the data directory has no manifest but its WAL holds writes: dir=" + dir()
                                + " wal-durable-lsn=1"),
                e.getMessage());
        assertEquals(files, checkpointFiles(), "no checkpoint file is deleted");
        DataDirectory.open(dir()).close();
    }

    @Test
    void anUpdateOrDeleteReadingTheClockComesBackAsAcknowledged() throws Exception {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        int fixed = writeBatch(writes, 3);
        int system = writeBatch(writes, 2);
        int deleted = writeBatch(writes, 5);
        LocalDateTime at = LocalDateTime.of(2025, 1, 2, 10, 20, 30, 123_456_000);
        writes.commit(List.of(WriteService.update(
                "UPDATE t SET desk = CAST(CAST(now() AS TIMESTAMP) AS VARCHAR), day = current_date WHERE b = " + fixed,
                at)));
        // days 2025-01-01 to -05 at midnight, before 2025-01-03 12:00 for the first three
        writes.commit(List.of(WriteService.delete(
                "DELETE FROM t WHERE b = " + deleted + " AND day < now() - INTERVAL 1 DAY", at.plusHours(50))));
        LocalDateTime before = LocalDateTime.now();
        writes.commit(List.of(
                WriteService.update("UPDATE t SET desk = CAST(localtimestamp AS VARCHAR) WHERE b = " + system)));
        LocalDateTime after = LocalDateTime.now();
        String read = "SELECT b, desk, day, COUNT(*) FROM t WHERE b IN (" + fixed + ", " + system + ", " + deleted
                + ") GROUP BY b, desk, day ORDER BY b, day";
        String acknowledged = writes.cube().query(read).toString();
        assertEquals(
                "b | desk | day | count_star()\n" + fixed + " | 2025-01-02 10:20:30.123456 | 2025-01-02 | 3\n",
                writes.cube()
                        .query("SELECT b, desk, day, COUNT(*) FROM t WHERE b = " + fixed + " GROUP BY b, desk, day")
                        .toString());
        assertEquals(
                "count_star() | min(day)\n2 | 2025-01-04\n",
                writes.cube()
                        .query("SELECT COUNT(*), MIN(day) FROM t WHERE b = " + deleted)
                        .toString());
        LocalDateTime systemClock = LocalDateTime.parse(writes.cube()
                .query("SELECT MIN(desk) FROM t WHERE b = " + system)
                .getString(0, 0)
                .replace(' ', 'T'));
        assertFalse(systemClock.isBefore(before.truncatedTo(ChronoUnit.MICROS)) || systemClock.isAfter(after));
        List<String> answers = answers(writes.cube());
        store.close();
        Thread.sleep(5);

        WriteService back = recovered(store(WalOptions.defaults()));
        assertEquals(acknowledged, back.cube().query(read).toString());
        assertEquals(answers, answers(back.cube()));
    }

    @Test
    void aBlockOfClockReadingStatementsIsTriedCommittedAndRecoveredWithEachStatementsClock() throws Exception {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        int b = writeBatch(writes, 6);
        String rows = "b = " + b + " AND ";
        List<Batch> block = new ArrayList<>();
        List<Long> tried = new ArrayList<>();
        try (BlockTrial trial = writes.openTrial()) {
            // ids b*1000 + 0..5; desk holds "D,n" until the first statement sets it, and "D" sorts after a digit
            for (String sql : List.of(
                    "UPDATE t SET desk = CAST(CAST(now() AS TIMESTAMP) AS VARCHAR) WHERE " + rows + "id % 2 = 0",
                    "UPDATE t SET px = px + 1 WHERE " + rows + "desk < CAST(CAST(now() AS TIMESTAMP) AS VARCHAR)",
                    "UPDATE t SET day = current_date WHERE " + rows + "id % 1000 % 3 = 0",
                    "DELETE FROM t WHERE " + rows + "desk < CAST(localtimestamp AS VARCHAR) AND id % 4 = 0")) {
                Thread.sleep(3);
                block.add(sql.startsWith("DELETE") ? WriteService.delete(sql) : WriteService.update(sql));
                tried.add(writes.trialRows(trial, block));
            }
        }
        assertEquals(List.of(3L, 3L, 2L, 2L), tried, "even: 0, 2, 4; by three: 0, 3; by four: 0, 4");
        List<Long> committed =
                writes.commit(block).stream().map(WriteService.Appended::rows).toList();
        assertEquals(tried, committed);
        String read = "SELECT id, desk, px, day FROM t WHERE b = " + b + " ORDER BY id";
        String acknowledged = writes.cube().query(read).toString();
        String counts = "SELECT COUNT(*), SUM(px), SUM(CASE WHEN desk = '"
                + asText(block.get(0).clock())
                + "' THEN 1 ELSE 0 END), SUM(CASE WHEN day = DATE '"
                + block.get(2).clock().toLocalDate()
                + "' THEN 1 ELSE 0 END) FROM t WHERE b = " + b;
        // left: 1, 2 (its desk the first statement's clock, its px + 1), 3 (its day the third's), 5
        assertEquals(List.of("4", "13.00", "1", "1"), row(writes.cube(), counts));
        store.close();
        Thread.sleep(5);

        WriteService back = recovered(store(WalOptions.defaults()));
        assertEquals(acknowledged, back.cube().query(read).toString());
        assertEquals(List.of("4", "13.00", "1", "1"), row(back.cube(), counts));
    }

    /**
     * A block whose trial is still current at COMMIT is published from the trial, and one that another write overtook
     * between its trial and its turn (logged before it, from inside its submit here) is applied again after that write;
     * both are logged as their statements with their clocks, and a crash right after their acknowledgement gives back
     * the same tables.
     */
    @Test
    void blocksPublishedFromTheirTrialOrAppliedAgainComeBackAlikeAfterACrash() throws Exception {
        DurableStore store = store(WalOptions.defaults());
        WriteService first = firstStart(store);
        AtomicReference<WriteService> service = new AtomicReference<>();
        AtomicReference<Batch> overtaking = new AtomicReference<>();
        WriteService.BatchLog log = store.batchLog();
        WriteService writes = new WriteService(first.cube(), new WriteService.BatchLog() {
            @Override
            public void write(List<Batch> batches) {
                log.write(batches);
            }

            @Override
            public WriteService.Durable submit(List<Batch> batches) {
                Batch other = overtaking.getAndSet(null);
                if (other != null) {
                    service.get().append(other);
                }
                return log.submit(batches);
            }
        });
        service.set(writes);
        int p = writeBatch(writes, 6);
        int r = writeBatch(writes, 6);
        List<Batch> block = new ArrayList<>();
        List<Long> tried = new ArrayList<>();
        try (BlockTrial trial = writes.openTrial()) {
            for (String sql : List.of(
                    "UPDATE t SET desk = CAST(CAST(now() AS TIMESTAMP) AS VARCHAR) WHERE b = " + p + " AND id % 2 = 0",
                    "DELETE FROM t WHERE b = " + p + " AND id % 3 = 0",
                    "UPDATE t SET px = px + 1, day = current_date WHERE b = " + p)) {
                block.add(sql.startsWith("DELETE") ? WriteService.delete(sql) : WriteService.update(sql));
                tried.add(writes.trialRows(trial, block));
            }
            block.add(new Batch("t", BatchFormat.CSV, csv(p, 2), "test batch " + p + " again"));
            tried.add(2L);
            List<Long> committed = writes.commit(trial, block).stream()
                    .map(WriteService.Appended::rows)
                    .toList();
            assertEquals(tried, committed);
            assertEquals(List.of(1L, 0L), List.of(writes.publishedTrials(), writes.reappliedBlocks()));

            List<Batch> second = new ArrayList<>();
            second.add(WriteService.update("UPDATE t SET px = px * 2 WHERE b = " + r));
            second.add(WriteService.delete("DELETE FROM t WHERE b = " + r + " AND px = 0"));
            assertEquals(6, writes.trialRows(trial, second.subList(0, 1)));
            assertEquals(0, writes.trialRows(trial, second), "no px is 0 before the other write");
            overtaking.set(WriteService.update("UPDATE t SET px = 0 WHERE b = " + r + " AND id % 2 = 1"));
            assertEquals(
                    List.of(6L, 3L),
                    writes.commit(trial, second).stream()
                            .map(WriteService.Appended::rows)
                            .toList(),
                    "applied again after the other write, which set three px to 0");
            assertEquals(List.of(1L, 1L), List.of(writes.publishedTrials(), writes.reappliedBlocks()));
        }
        // r's rows: px 0.25 .. 5.25, the odd ones 0 and deleted, the others doubled
        String read = "SELECT b, id, desk, px, day FROM t WHERE b IN (" + p + ", " + r + ") ORDER BY b, id";
        assertEquals(List.of("3", "13.50"), row(writes.cube(), "SELECT COUNT(*), SUM(px) FROM t WHERE b = " + r));
        String acknowledged = writes.cube().query(read).toString();
        List<String> answers = answers(writes.cube());
        store.close();
        Thread.sleep(5);

        WriteService back = recovered(store(WalOptions.defaults()));
        assertEquals(acknowledged, back.cube().query(read).toString());
        assertEquals(answers, answers(back.cube()));
    }

    /** A TIMESTAMP as DuckDB writes it as text: microseconds without their trailing zeros. */
    private static String asText(LocalDateTime t) {
        String text = t.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"));
        return text.replaceAll("\\.?0+$", "");
    }

    private static List<String> row(Cube cube, String sql) {
        io.numacube.engine.result.QueryResult r = cube.query(sql);
        List<String> out = new ArrayList<>();
        for (int c = 0; c < r.columnCount(); c++) {
            out.add(r.getString(0, c));
        }
        return out;
    }

    @Test
    void aWalOfTheFirstRecordFormatWithoutClocksStillRecovers() throws Exception {
        DurableStore store = store(WalOptions.defaults());
        WriteService writes = firstStart(store);
        int b = writeBatch(writes, 4);
        store.close();
        try (WriteAheadLog wal =
                WriteAheadLog.open(dir().resolve(DataDirectory.WAL_DIRECTORY), WalOptions.defaults())) {
            wal.append(
                    WriteRecord.TYPE,
                    WriteRecordTest.versionOne(List.of(
                            new Batch("t", BatchFormat.UPDATE, bytes("UPDATE t SET desk = 'v1' WHERE b = " + b), "U"),
                            new Batch("t", BatchFormat.DELETE, bytes("DELETE FROM t WHERE id = " + b * 1000), "D"))));
        }

        DurableStore again = store(WalOptions.defaults());
        WriteService back = new WriteService(cube(), again.batchLog());
        DurableStore.Recovered r = again.recover(back);
        assertEquals(2, r.writes());
        assertEquals(
                "desk | count_star()\nv1 | 3\n",
                back.cube()
                        .query("SELECT desk, COUNT(*) FROM t WHERE b = " + b + " GROUP BY desk")
                        .toString());
        back.commit(List.of(WriteService.update("UPDATE t SET desk = 'v2' WHERE b = " + b)));
        again.close();
        assertEquals(
                "count_star()\n3\n",
                recovered(store(WalOptions.defaults()))
                        .cube()
                        .query("SELECT COUNT(*) FROM t WHERE desk = 'v2'")
                        .toString(),
                "a version 2 record follows the version 1 ones");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
