package io.numacube.server.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.WriteService.Batch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A write as one WAL record and back: every field kept byte for byte, and every damaged record a clear error. */
class WriteRecordTest {

    private static final List<Batch> WRITE = List.of(
            new Batch("Trades", BatchFormat.CSV, "id,desk\n1,D1\n".getBytes(StandardCharsets.UTF_8), "COPY trades"),
            new Batch("ünï", BatchFormat.JSON_LINES, new byte[0], "INSERT INTO ünï"),
            new Batch("fx", BatchFormat.JSON_LINES, "{\"c\":\"EUR\"}\n".getBytes(StandardCharsets.UTF_8), "POST"));

    @Test
    void aWriteComesBackAsItWasLogged() {
        List<Batch> back = WriteRecord.decode(7, WriteRecord.TYPE, WriteRecord.encode(WRITE));
        assertEquals(WRITE.size(), back.size());
        for (int i = 0; i < WRITE.size(); i++) {
            assertEquals(WRITE.get(i).table(), back.get(i).table());
            assertEquals(WRITE.get(i).format(), back.get(i).format());
            assertEquals(WRITE.get(i).source(), back.get(i).source());
            assertArrayEquals(WRITE.get(i).body(), back.get(i).body());
        }
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
                9, WriteRecord.TYPE, with(record, 0, (byte) 2), "unknown write format version: version=2 expected=1");
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
