package io.numacube.server.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalRecoveryTest {

    @TempDir
    Path root;

    private static final WalOptions OPTIONS = WalOptions.defaults();

    /** Appends records 1..count, each its own commit, with payloads of 40 + 7 * lsn bytes; returns them. */
    private static List<WalRecord> appendEach(Path dir, int count, WalOptions options) {
        List<WalRecord> appended = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            for (int i = 1; i <= count; i++) {
                byte[] p = WriteAheadLogTest.payload(i, 40 + 7 * i);
                appended.add(new WalRecord(wal.append((byte) i, p), (byte) i, p));
            }
        }
        return appended;
    }

    /** The offset of each record of a single-segment log, and the file's end after them. */
    private static long[] offsets(List<WalRecord> records) {
        long[] at = new long[records.size() + 1];
        at[0] = WalFormat.SEGMENT_HEADER_BYTES;
        for (int i = 0; i < records.size(); i++) {
            at[i + 1] = at[i] + WalFormat.recordBytes(records.get(i).payload().length);
        }
        return at;
    }

    private static Path onlySegment(Path dir) throws IOException {
        List<Path> segments = new ArrayList<>(Recovery.segmentsIn(dir).values());
        assertEquals(1, segments.size(), "segments=" + segments);
        return segments.getFirst();
    }

    @Test
    void aTornTailIsCutAtEveryTruncationPointOfTheLastRecordAndAppendingGoesOn() throws IOException {
        Path golden = root.resolve("golden");
        List<WalRecord> appended = appendEach(golden, 10, OPTIONS);
        byte[] whole = Files.readAllBytes(onlySegment(golden));
        long lastStart = offsets(appended)[9];
        assertEquals(offsets(appended)[10], whole.length);
        for (int cut = (int) lastStart; cut < whole.length; cut++) {
            Path dir = root.resolve("cut-" + cut);
            Files.createDirectories(dir);
            Path segment = dir.resolve(WalFormat.segmentName(1));
            Files.write(segment, Arrays.copyOf(whole, cut));
            byte[] again = WriteAheadLogTest.payload(-cut, 33);
            try (LogCapture log = new LogCapture(Recovery.class);
                    WriteAheadLog wal = WriteAheadLog.open(dir, OPTIONS)) {
                assertEquals(10, wal.nextLsn(), "cut=" + cut);
                assertEquals(lastStart, Files.size(segment));
                boolean cutInsideRecord = cut > lastStart;
                assertEquals(cutInsideRecord ? 1 : 0, log.warnings().size(), "cut=" + cut + " " + log.warnings());
                if (cutInsideRecord) {
                    assertTrue(
                            log.warnings()
                                    .getFirst()
                                    .startsWith("WAL torn tail cut: file=" + segment + " offset=" + lastStart
                                            + " cut-bytes=" + (cut - lastStart)),
                            log.warnings().getFirst());
                }
                List<WalRecord> replayed = new ArrayList<>();
                wal.replay(0, replayed::add);
                assertEquals(appended.subList(0, 9), replayed, "cut=" + cut);
                assertEquals(10, wal.append((byte) 77, again));
            }
            List<WalRecord> expected = new ArrayList<>(appended.subList(0, 9));
            expected.add(new WalRecord(10, (byte) 77, again));
            assertEquals(expected, WriteAheadLogTest.replayAll(dir, OPTIONS, 0), "cut=" + cut);
        }
    }

    @Test
    void aDamagedOrZeroFilledLastRecordWithNothingDurableAfterItIsATornTail() throws IOException {
        Path golden = root.resolve("golden");
        List<WalRecord> appended = appendEach(golden, 6, OPTIONS);
        byte[] whole = Files.readAllBytes(onlySegment(golden));
        long lastStart = offsets(appended)[5];
        for (int at = (int) lastStart; at < whole.length; at++) {
            byte[] damaged = whole.clone();
            damaged[at] ^= 0x20;
            assertRecoversTo(damaged, appended.subList(0, 5), "flipped byte at offset " + at);
        }
        byte[] zeroTail = Arrays.copyOf(whole, whole.length + 8192);
        assertRecoversTo(zeroTail, appended, "8 KiB of zeros after the last record");
        byte[] zeroedLast = whole.clone();
        Arrays.fill(zeroedLast, (int) lastStart, whole.length, (byte) 0);
        assertRecoversTo(zeroedLast, appended.subList(0, 5), "the last record zeroed");
    }

    private void assertRecoversTo(byte[] segmentBytes, List<WalRecord> expected, String what) throws IOException {
        Path dir = Files.createTempDirectory(root, "case");
        Files.write(dir.resolve(WalFormat.segmentName(1)), segmentBytes);
        assertEquals(expected, WriteAheadLogTest.replayAll(dir, OPTIONS, 0), what);
    }

    @Test
    void aFlippedByteInAMiddleRecordIsCorruptionNamingFileAndOffset() throws IOException {
        Path golden = root.resolve("golden");
        List<WalRecord> appended = appendEach(golden, 10, OPTIONS);
        byte[] whole = Files.readAllBytes(onlySegment(golden));
        long[] offsets = offsets(appended);
        for (long at = offsets[4]; at < offsets[5]; at++) {
            Path dir = Files.createTempDirectory(root, "flip");
            Path segment = dir.resolve(WalFormat.segmentName(1));
            byte[] damaged = whole.clone();
            damaged[(int) at] ^= 0x01;
            Files.write(segment, damaged);
            WalCorruptionException e =
                    assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, OPTIONS));
            assertEquals(segment, e.file());
            assertEquals(offsets[4], e.offset(), "flipped at " + at);
            assertEquals(WalCorruptionException.DATA_CORRUPTED, e.code());
            assertTrue(
                    e.getMessage().startsWith("WAL is corrupt: file=" + segment + " offset=" + offsets[4] + " reason="),
                    e.getMessage());
            assertTrue(e.getMessage().contains("a record written after it was durable follows: lsn=6"), e.getMessage());
            assertArrayEquals(damaged, Files.readAllBytes(segment), "a corrupt log is left as it is");
        }
    }

    @Test
    void aBadRecordAtTheEndOfAFinishedSegmentIsCorruption() throws IOException {
        WalOptions small = OPTIONS.withSegmentSizeBytes(1024);
        Path dir = root.resolve("log");
        appendEach(dir, 30, small);
        List<Path> segments = new ArrayList<>(Recovery.segmentsIn(dir).values());
        assertTrue(segments.size() >= 3, "segments=" + segments);
        Path first = segments.getFirst();
        long size = Files.size(first);
        try (var channel = java.nio.channels.FileChannel.open(first, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(size - 1);
        }
        WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, small));
        assertEquals(first, e.file());
        assertTrue(e.getMessage().contains("(in a segment the log had finished)"), e.getMessage());
    }

    @Test
    void aMissingMiddleSegmentOrARenamedOneIsCorruption() throws IOException {
        WalOptions small = OPTIONS.withSegmentSizeBytes(1024);
        Path dir = root.resolve("log");
        appendEach(dir, 30, small);
        List<Path> segments = new ArrayList<>(Recovery.segmentsIn(dir).values());
        Path second = segments.get(1);
        Path moved = root.resolve("moved");
        Files.move(second, moved);
        WalCorruptionException gap = assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, small));
        assertEquals(segments.get(2), gap.file());
        assertTrue(gap.getMessage().contains("reason=records missing between segments"), gap.getMessage());
        long secondFirst = WalFormat.firstLsnOfName(second.getFileName().toString());
        Files.move(moved, dir.resolve(WalFormat.segmentName(secondFirst + 1)));
        WalCorruptionException renamed =
                assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, small));
        assertTrue(
                renamed.getMessage()
                        .contains("reason=segment header and file name disagree: header-first-lsn=" + secondFirst
                                + " name-first-lsn=" + (secondFirst + 1)),
                renamed.getMessage());
    }

    @Test
    void aLastSegmentWhoseCreationWasInterruptedIsDeletedAndOneWithRecordsAndABadHeaderIsCorruption()
            throws IOException {
        Path dir = root.resolve("log");
        List<WalRecord> appended = appendEach(dir, 5, OPTIONS);
        Path interrupted = dir.resolve(WalFormat.segmentName(6));
        Files.write(interrupted, Arrays.copyOf(WalFormat.segmentHeader(6).array(), 11));
        try (LogCapture log = new LogCapture(Recovery.class)) {
            assertEquals(appended, WriteAheadLogTest.replayAll(dir, OPTIONS, 0));
            assertTrue(
                    log.warnings().getFirst().startsWith("WAL segment deleted: file=" + interrupted),
                    log.warnings().toString());
        }
        assertFalse(Files.exists(interrupted));

        Path only = onlySegment(dir);
        byte[] bytes = Files.readAllBytes(only);
        bytes[0] = 'X';
        Files.write(only, bytes);
        WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, OPTIONS));
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("reason=not a numacube WAL segment (bad magic)"), e.getMessage());
    }

    /** A segment of records given as {lsn, synced LSN}, each with a payload of 50 bytes; returns record offsets. */
    private static long[] writeSegment(Path file, long[][] records) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        b.put(WalFormat.segmentHeader(records[0][0]));
        long[] offsets = new long[records.length];
        for (int i = 0; i < records.length; i++) {
            offsets[i] = b.position();
            WalFormat.putRecord(b, records[i][0], records[i][1], (byte) 0, WriteAheadLogTest.payload(i, 50));
        }
        Files.write(file, Arrays.copyOf(b.array(), b.position()));
        return offsets;
    }

    @Test
    void aBadRecordFollowedOnlyByRecordsOfItsOwnUnacknowledgedBatchIsATornTail() throws IOException {
        // records 4, 5 and 6 were one batch, written when 3 was durable: power loss kept 5 and 6, not 4
        Path dir = root.resolve("batch");
        Files.createDirectories(dir);
        Path segment = dir.resolve(WalFormat.segmentName(1));
        long[] at = writeSegment(segment, new long[][] {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 3}, {6, 3}});
        zero(segment, at[3], 30);
        try (LogCapture log = new LogCapture(Recovery.class);
                WriteAheadLog wal = WriteAheadLog.open(dir, OPTIONS)) {
            assertEquals(4, wal.nextLsn());
            assertEquals(at[3], Files.size(segment));
            assertTrue(
                    log.warnings().getFirst().contains("intact-unacknowledged-records-dropped=2"),
                    log.warnings().toString());
        }
    }

    @Test
    void aBadRecordFollowedByOneWrittenAfterItWasDurableIsCorruption() throws IOException {
        Path dir = root.resolve("later");
        Files.createDirectories(dir);
        Path segment = dir.resolve(WalFormat.segmentName(1));
        long[] at = writeSegment(segment, new long[][] {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}});
        zero(segment, at[3], 30);
        byte[] before = Files.readAllBytes(segment);
        WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> WriteAheadLog.open(dir, OPTIONS));
        assertEquals(at[3], e.offset());
        assertTrue(e.getMessage().contains("follows: lsn=5 synced-lsn=4 offset=" + at[4]), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(segment));
    }

    private static void zero(Path file, long offset, int bytes) throws IOException {
        byte[] b = Files.readAllBytes(file);
        Arrays.fill(b, (int) offset, (int) offset + bytes, (byte) 0);
        Files.write(file, b);
    }
}
