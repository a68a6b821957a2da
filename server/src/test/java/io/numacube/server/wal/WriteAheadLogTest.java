package io.numacube.server.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {

    @TempDir
    Path dir;

    static byte[] payload(long seed, int bytes) {
        byte[] b = new byte[bytes];
        new Random(seed).nextBytes(b);
        return b;
    }

    static List<WalRecord> replayAll(Path dir, WalOptions options, long fromLsnExclusive) {
        List<WalRecord> out = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            wal.replay(fromLsnExclusive, out::add);
        }
        return out;
    }

    @Test
    void replaysEveryAppendedRecordWithItsTypeAndBytesAfterReopening() {
        List<WalRecord> appended = new ArrayList<>();
        Random random = new Random(7);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
            assertEquals(1, wal.nextLsn());
            for (int i = 0; i < 50; i++) {
                byte type = (byte) random.nextInt(256);
                byte[] bytes = payload(i, i == 3 ? 0 : random.nextInt(5000));
                long lsn = wal.append(type, bytes);
                appended.add(new WalRecord(lsn, type, bytes.clone()));
            }
            assertEquals(50, wal.durableLsn());
        }
        for (int i = 0; i < appended.size(); i++) {
            assertEquals(i + 1, appended.get(i).lsn());
        }
        assertEquals(appended, replayAll(dir, WalOptions.defaults(), 0));
        assertEquals(appended.subList(20, 50), replayAll(dir, WalOptions.defaults(), 20));
        assertEquals(List.of(), replayAll(dir, WalOptions.defaults(), 50));
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
            assertEquals(51, wal.nextLsn());
            assertEquals(51, wal.append((byte) 1, new byte[] {9}));
        }
    }

    @Test
    void submittedRecordsGetLsnsInCallOrderAndAreDurableOnceAwaited() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
            long[] lsns = new long[20];
            for (int i = 0; i < lsns.length; i++) {
                lsns[i] = wal.submit((byte) 1, payload(i, 100));
            }
            wal.awaitDurable(lsns[lsns.length - 1]);
            assertEquals(20, wal.durableLsn());
            List<Long> replayed = new ArrayList<>();
            wal.replay(0, r -> replayed.add(r.lsn()));
            for (int i = 0; i < lsns.length; i++) {
                assertEquals(i + 1, lsns[i]);
                assertEquals(i + 1, replayed.get(i));
            }
        }
    }

    @Test
    void replayCountsWhatItHandsOver() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
            for (int i = 0; i < 10; i++) {
                wal.append((byte) 0, payload(i, 10));
            }
            AtomicLong seen = new AtomicLong();
            assertEquals(6, wal.replay(4, r -> seen.incrementAndGet()));
            assertEquals(6, seen.get());
        }
    }

    @Test
    void concurrentAppendersShareFsyncsAndGetDistinctLsnsInOrder() throws Exception {
        int threads = 8;
        int perThread = 200;
        ConcurrentLinkedQueue<Long> fsyncNanos = new ConcurrentLinkedQueue<>();
        // a tenth of a millisecond more per fsync stands for a real disk where the temp directory is tmpfs, whose
        // fsync costs nothing and would leave nothing to share; group commit must not depend on a slow disk otherwise
        WalOptions options = WalOptions.defaults().withFsyncLatencyNanos(n -> {
            fsyncNanos.add(n);
            LockSupport.parkNanos(100_000);
        });
        long[][] lsns = new long[threads][perThread];
        WalStats stats;
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            long fsyncsAtOpen = wal.stats().fsyncs();
            int observedAtOpen = fsyncNanos.size();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(Thread.ofPlatform().start(() -> {
                    awaitQuietly(start);
                    for (int i = 0; i < perThread; i++) {
                        lsns[thread][i] = wal.append((byte) thread, payload(thread * 100_000L + i, 100 + i));
                    }
                }));
            }
            start.countDown();
            for (Thread t : running) {
                t.join();
            }
            stats = wal.stats();
            assertEquals(threads * perThread, stats.records());
            long fsyncs = stats.fsyncs() - fsyncsAtOpen;
            assertEquals(fsyncs, fsyncNanos.size() - observedAtOpen, "every fsync of a segment is observed");
            assertTrue(fsyncs < threads * perThread / 3, "fsyncs=" + fsyncs + " records=" + stats.records());
        }
        List<WalRecord> replayed = replayAll(dir, WalOptions.defaults(), 0);
        assertEquals(threads * perThread, replayed.size());
        for (int i = 0; i < replayed.size(); i++) {
            assertEquals(i + 1, replayed.get(i).lsn());
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                if (i > 0) {
                    assertTrue(lsns[t][i] > lsns[t][i - 1], "one thread's LSNs rise");
                }
                WalRecord r = replayed.get((int) lsns[t][i] - 1);
                assertEquals(t, r.type());
                assertArrayEquals(payload(t * 100_000L + i, 100 + i), r.payload());
            }
        }
        System.out.printf(
                "group commit: %d records, %d commit batches, %.1f records per fsync%n",
                stats.records(), stats.commitBatches(), stats.recordsPerCommit());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void rollsToANewSegmentPastTheSizeLimitAndReplaysAcrossSegments() throws Exception {
        WalOptions options = WalOptions.defaults().withSegmentSizeBytes(1024);
        List<WalRecord> appended = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            for (int i = 0; i < 40; i++) {
                int bytes = i == 20 ? 3000 : 100;
                byte[] p = payload(i, bytes);
                appended.add(new WalRecord(wal.append((byte) 2, p), (byte) 2, p));
            }
            List<Path> files = wal.segmentFiles();
            assertTrue(files.size() >= 5, "segments=" + files);
            long previousFirst = 0;
            for (Path f : files) {
                long first = WalFormat.firstLsnOfName(f.getFileName().toString());
                assertTrue(first > previousFirst);
                previousFirst = first;
                long size = Files.size(f);
                boolean holdsTheLargeRecord = first == 21;
                assertTrue(size <= 1024 || holdsTheLargeRecord, f + " size=" + size);
            }
            assertTrue(files.stream().anyMatch(f -> f.getFileName().toString().equals(WalFormat.segmentName(21))));
        }
        assertEquals(appended, replayAll(dir, options, 0));
        assertEquals(appended.subList(33, 40), replayAll(dir, options, 33));
    }

    @Test
    void truncateBeforeDeletesOnlySegmentsWhollyBelowTheLsn() throws Exception {
        WalOptions options = WalOptions.defaults().withSegmentSizeBytes(1024);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            for (int i = 0; i < 60; i++) {
                wal.append((byte) 0, payload(i, 100));
            }
            List<Path> before = wal.segmentFiles();
            long keptFirst =
                    WalFormat.firstLsnOfName(before.get(2).getFileName().toString());
            long lsn = keptFirst + 1;
            assertEquals(2, wal.truncateBefore(lsn));
            assertEquals(before.subList(2, before.size()), wal.segmentFiles());
            assertTrue(Files.notExists(before.get(0)) && Files.notExists(before.get(1)));
            assertEquals(keptFirst, wal.oldestLsn());
            List<WalRecord> tail = new ArrayList<>();
            wal.replay(lsn - 1, tail::add);
            assertEquals(60 - lsn + 1, tail.size());
            assertEquals(lsn, tail.getFirst().lsn());
            NumacubeException e = assertThrows(NumacubeException.class, () -> wal.replay(0, r -> {}));
            assertTrue(
                    e.getMessage().startsWith("WAL records before lsn=" + keptFirst + " were truncated"),
                    e.getMessage());
            assertEquals(0, wal.truncateBefore(keptFirst));
            assertThrows(NumacubeException.class, () -> wal.truncateBefore(62));
            wal.truncateBefore(61);
            assertEquals(1, wal.segmentFiles().size(), "the active segment stays");
        }
        List<WalRecord> afterReopen = replayAll(dir, options, 59);
        assertEquals(1, afterReopen.size());
        assertEquals(60, afterReopen.getFirst().lsn());
    }

    @Test
    void failsClosedAfterAWriteFailsAndAcknowledgesNothingMore() throws Exception {
        WalOptions options = WalOptions.defaults().withSegmentSizeBytes(1024);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertEquals(1, wal.append((byte) 0, payload(1, 600)));
            // the next record must go to a new segment, whose name is taken: creating it fails as a full disk would
            Files.createDirectory(dir.resolve(WalFormat.segmentName(2)));
            NumacubeException first =
                    assertThrows(NumacubeException.class, () -> wal.append((byte) 0, payload(2, 600)));
            assertEquals("58030", first.code());
            assertTrue(
                    first.getMessage()
                            .startsWith(
                                    "WAL failed and refuses every append: append not acknowledged:" + " lsn=2 file="),
                    first.getMessage());
            NumacubeException later = assertThrows(NumacubeException.class, () -> wal.append((byte) 0, new byte[1]));
            assertTrue(
                    later.getMessage().startsWith("WAL failed and refuses every append: append refused"),
                    later.getMessage());
            assertEquals(1, wal.durableLsn());
        }
        Files.delete(dir.resolve(WalFormat.segmentName(2)));
        List<WalRecord> replayed = replayAll(dir, options, 0);
        assertEquals(1, replayed.size());
        assertArrayEquals(payload(1, 600), replayed.getFirst().payload());
    }

    @Test
    void refusesAppendsAfterClose() {
        WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults());
        wal.append((byte) 0, new byte[3]);
        wal.close();
        NumacubeException e = assertThrows(NumacubeException.class, () -> wal.append((byte) 0, new byte[3]));
        assertTrue(e.getMessage().startsWith("WAL is closed: append refused next-lsn=2"), e.getMessage());
    }

    @Test
    void refusesASegmentSizeBelowTheMinimum() {
        NumacubeException e = assertThrows(
                NumacubeException.class, () -> WalOptions.defaults().withSegmentSizeBytes(100));
        assertEquals("WAL segment size too small: segment-size-bytes=100 minimum=1024", e.getMessage());
    }
}
