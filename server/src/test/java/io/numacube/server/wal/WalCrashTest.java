package io.numacube.server.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} at random moments: a child JVM ({@link WalCrashChild}) appends from four threads and prints each
 * acknowledged LSN; after it is killed, recovery must replay every acknowledged record with its exact payload, and
 * nothing else but records its appenders really wrote (at most one unacknowledged one per thread, the append the
 * kill cut short). After each check the log is checkpointed and truncated, as the server will do.
 */
class WalCrashTest {

    private static final int KILLS = 20;
    private static final int THREADS = 4;
    private static final long SEGMENT_BYTES = 256 << 10;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(25);

    @TempDir
    Path root;

    /** What the child printed: acknowledged LSN to payload identity. */
    private static Map<Long, CrashPayload> acknowledged(Path stdout) throws IOException {
        Map<Long, CrashPayload> acked = new HashMap<>();
        for (String line : Files.readAllLines(stdout)) {
            String[] f = line.split(" ");
            if (f.length == 5 && f[4].equals(".")) {
                acked.put(
                        Long.parseLong(f[0]),
                        new CrashPayload(Long.parseLong(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3])));
            }
        }
        return acked;
    }

    @Test
    void everyAcknowledgedRecordSurvivesKillNineAtRandomMoments() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path dir = root.resolve("data");
        long checkpointLsn = 0;
        long started = System.nanoTime();
        int kills = 0;
        long ackedTotal = 0;
        int tornTails = 0;
        for (int run = 1; run <= KILLS && System.nanoTime() - started < BUDGET_NANOS; run++) {
            Path stdout = root.resolve("out-" + run + ".txt");
            Process child = start(dir, run, stdout);
            try {
                awaitFirstAck(child, stdout, seed);
                assertLockedByChild(dir, child);
                Thread.sleep(random.nextInt(300));
            } finally {
                child.destroyForcibly();
                child.waitFor();
            }
            kills++;
            Map<Long, CrashPayload> acked = acknowledged(stdout);
            assertTrue(!acked.isEmpty(), "seed=" + seed + " run=" + run + ": the child acknowledged nothing");
            ackedTotal += acked.size();
            try (LogCapture log = new LogCapture(Recovery.class)) {
                checkpointLsn = recoverAndCheck(dir, run, acked, checkpointLsn, seed);
                tornTails += (int) log.warnings().stream()
                        .filter(w -> w.startsWith("WAL torn tail cut"))
                        .count();
            }
        }
        assertTrue(kills >= 5, "seed=" + seed + ": only " + kills + " kills in the time budget");
        System.out.printf(
                "crash test: seed=%d kills=%d acknowledged=%d torn-tails-cut=%d%n", seed, kills, ackedTotal, tornTails);
    }

    private Process start(Path dir, int run, Path stdout) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                WalCrashChild.class.getName(),
                dir.toString(),
                Integer.toString(run),
                Integer.toString(THREADS),
                Long.toString(SEGMENT_BYTES));
        pb.redirectOutput(stdout.toFile());
        pb.redirectError(root.resolve("err-" + run + ".txt").toFile());
        return pb.start();
    }

    private void awaitFirstAck(Process child, Path stdout, long seed) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Files.size(stdout) == 0) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                child.destroyForcibly().waitFor();
                Path stderr = root.resolve(stdout.getFileName().toString().replace("out-", "err-"));
                fail("seed=" + seed + ": the child acknowledged nothing; exit=" + child.exitValue() + " stderr:\n"
                        + Files.readString(stderr));
            }
            Thread.sleep(5);
        }
    }

    private static void assertLockedByChild(Path dir, Process child) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> DataDirectory.open(dir));
        assertTrue(e.getMessage().startsWith("data directory in use: dir=" + dir), e.getMessage());
        assertTrue(e.getMessage().contains(" pid=" + child.pid() + " "), e.getMessage());
    }

    /**
     * Replays the log after {@code checkpointLsn} and checks it against what run {@code run} acknowledged; then
     * checkpoints (truncates) it and returns the new checkpoint LSN.
     */
    private static long recoverAndCheck(
            Path dir, int run, Map<Long, CrashPayload> acked, long checkpointLsn, long seed) {
        String context = "seed=" + seed + " run=" + run;
        Map<Long, CrashPayload> replayed = new TreeMap<>();
        try (DataDirectory data = DataDirectory.open(dir);
                WriteAheadLog wal = WriteAheadLog.open(data.walDirectory(), WalOptions.defaults())) {
            wal.replay(checkpointLsn, r -> {
                CrashPayload p = CrashPayload.of(r.payload());
                assertEquals(run, p.run(), context + " lsn=" + r.lsn() + ": a record of another run");
                assertEquals(p.thread(), r.type(), context + " lsn=" + r.lsn());
                replayed.put(r.lsn(), p);
            });
            for (Map.Entry<Long, CrashPayload> a : acked.entrySet()) {
                assertEquals(a.getValue(), replayed.get(a.getKey()), context + ": acknowledged lsn=" + a.getKey());
            }
            checkEachThreadWroteAPrefix(replayed, acked, context);
            long durable = wal.durableLsn();
            wal.truncateBefore(durable + 1);
            return durable;
        }
    }

    /** Each thread's records are its sequence numbers 0..n, with n its last acknowledged one or the one after. */
    private static void checkEachThreadWroteAPrefix(
            Map<Long, CrashPayload> replayed, Map<Long, CrashPayload> acked, String context) {
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            List<Long> seqs = replayed.values().stream()
                    .filter(p -> p.thread() == thread)
                    .map(CrashPayload::seq)
                    .toList();
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(i, seqs.get(i), context + " thread=" + thread + ": sequence numbers in LSN order");
            }
            long lastAcked = acked.values().stream()
                    .filter(p -> p.thread() == thread)
                    .mapToLong(CrashPayload::seq)
                    .max()
                    .orElse(-1);
            long last = seqs.size() - 1;
            assertTrue(
                    last == lastAcked || last == lastAcked + 1,
                    context + " thread=" + thread + " last-acknowledged=" + lastAcked + " last-replayed=" + last);
        }
    }
}
