package io.numacube.server.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.WriteService;
import io.numacube.server.write.WriteService.Batch;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A write as one WAL record and back: every field kept byte for byte, and every damaged record a clear error. */
class WriteRecordTest {

    private static final List<Batch> WRITE = List.of(
            new Batch("Trades", BatchFormat.CSV, "id,desk\n1,D1\n".getBytes(StandardCharsets.UTF_8), "COPY trades"),
            new Batch("ünï", BatchFormat.JSON_LINES, new byte[0], "INSERT INTO ünï"),
            new Batch("fx", BatchFormat.JSON_LINES, "{\"c\":\"EUR\"}\n".getBytes(StandardCharsets.UTF_8), "POST"),
            WriteService.update("UPDATE t SET ts = now()", LocalDateTime.of(2026, 11, 27, 6, 46, 45, 465_232_000)),
            WriteService.delete("DELETE FROM t WHERE d < current_date", LocalDateTime.of(1969, 12, 31, 23, 59, 59)),
            new Batch("t", BatchFormat.UPDATE, "UPDATE t SET x = 1".getBytes(StandardCharsets.UTF_8), "UPDATE"));

    @Test
    void aWriteComesBackAsItWasLogged() {
        List<Batch> back = WriteRecord.decode(7, WriteRecord.TYPE, WriteRecord.encode(WRITE));
        assertEquals(WRITE.size(), back.size());
        for (int i = 0; i < WRITE.size(); i++) {
            assertEquals(WRITE.get(i).table(), back.get(i).table());
            assertEquals(WRITE.get(i).format(), back.get(i).format());
            assertEquals(WRITE.get(i).source(), back.get(i).source());
            assertArrayEquals(WRITE.get(i).body(), back.get(i).body());
            assertEquals(WRITE.get(i).clock(), back.get(i).clock());
        }
    }

    @Test
    void aStatementsClockIsLoggedToTheMicrosecond() {
        LocalDateTime at = LocalDateTime.of(2026, 11, 27, 6, 46, 45, 465_232_999);
        Batch update = WriteService.update("UPDATE t SET ts = now()", at);
        assertEquals(at.withNano(465_232_000), update.clock());
        byte[] record = WriteRecord.encode(List.of(update));
        assertEquals(WriteRecord.VERSION, record[0]);
        // the clock is the record's last 8 bytes: the wall clock in microseconds since 1970-01-01 00:00
        long micros = at.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + 465_232;
        assertEquals(
                micros, java.nio.ByteBuffer.wrap(record, record.length - 8, 8).getLong());
        assertEquals(1, record[record.length - 9], "the clock flag");
        assertRefused(
                3, WriteRecord.TYPE, with(record, record.length - 9, (byte) 7), "unknown clock flag: batch=0 flag=7");
    }

    /**
     * A record as version 1 wrote it (no clock), built byte by byte from that layout: its statements come back
     * without a clock, to read the clock when they are replayed.
     */
    @Test
    void aVersionOneRecordWithoutClocksIsStillRead() {
        byte[] record = versionOne(List.of(
                new Batch("t", BatchFormat.DELETE, "DELETE FROM t WHERE id = 1".getBytes(StandardCharsets.UTF_8), "D"),
                WRITE.getFirst()));
        List<Batch> back = WriteRecord.decode(5, WriteRecord.TYPE, record);
        assertEquals(2, back.size());
        assertEquals(BatchFormat.DELETE, back.get(0).format());
        assertEquals("DELETE FROM t WHERE id = 1", new String(back.get(0).body(), StandardCharsets.UTF_8));
        assertNull(back.get(0).clock());
        assertArrayEquals(WRITE.getFirst().body(), back.get(1).body());
        assertEquals("COPY trades", back.get(1).source());
        assertRefused(5, WriteRecord.TYPE, Arrays.copyOf(record, record.length + 1), "bytes after the last batch");
    }

    /** {@code batches} in the first layout: version 1, then per batch table, format, source and body. */
    static byte[] versionOne(List<Batch> batches) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
        try {
            out.writeByte(1);
            out.writeInt(batches.size());
            for (Batch b : batches) {
                byte[] table = b.table().getBytes(StandardCharsets.UTF_8);
                byte[] source = b.source().getBytes(StandardCharsets.UTF_8);
                out.writeInt(table.length);
                out.write(table);
                out.writeByte(b.format().code());
                out.writeInt(source.length);
                out.write(source);
                out.writeInt(b.body().length);
                out.write(b.body());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Test
    void aRecordCutAnywhereIsAnErrorNamingItsLsn() {
        byte[] record = WriteRecord.encode(WRITE);
        for (int n = 0; n < record.length; n++) {
            byte[] cut = Arrays.copyOf(record, n);
            NumacubeException e =
                    assertThrows(NumacubeException.class, () -> WriteRecord.decode(42, WriteRecord.TYPE, cut));
            assertTrue(
                    e.getMessage().startsWith("WAL record is not a write this numacube can read: lsn=42 "),
                    n + ": " + e.getMessage());
            assertEquals("XX001", e.code());
        }
    }

    @Test
    void anotherVersionFormatTypeOrTrailingBytesAreRefused() {
        byte[] record = WriteRecord.encode(WRITE.subList(0, 1));
        assertRefused(
                9,
                WriteRecord.TYPE,
                with(record, 0, (byte) 3),
                "unknown write format version: version=3 expected=1 or 2");
        int formatAt = 1 + 4 + 4 + "Trades".length();
        assertRefused(
                9, WriteRecord.TYPE, with(record, formatAt, (byte) 'X'), "unknown body format: batch=0 format=88");
        assertRefused(9, (byte) 'Q', record, "unknown record type: type=81 expected=87");
        assertRefused(
                9,
                WriteRecord.TYPE,
                Arrays.copyOf(record, record.length + 3),
                "bytes after the last batch: trailing=3");
        assertRefused(9, WriteRecord.TYPE, with(record, 4, (byte) 0), "batch count out of range: batches=0");
    }

    private static byte[] with(byte[] record, int at, byte value) {
        byte[] copy = record.clone();
        copy[at] = value;
        return copy;
    }

    private static void assertRefused(long lsn, byte type, byte[] payload, String reason) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> WriteRecord.decode(lsn, type, payload));
        assertTrue(e.getMessage().contains("lsn=" + lsn + " reason=" + reason), e.getMessage());
    }
}
