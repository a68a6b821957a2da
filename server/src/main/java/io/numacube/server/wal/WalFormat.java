package io.numacube.server.wal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The on-disk layout of a WAL segment file, written down as named offsets. All numbers are big-endian.
 *
 * <pre>
 * segment header, at offset 0 (24 bytes)
 *   0                   8           12                          20          24
 *   +-------------------+-----------+---------------------------+-----------+
 *   | magic "NCUBEWAL"  | version   | first LSN (long)          | CRC32C    |
 *   +-------------------+-----------+---------------------------+-----------+
 *   CRC32C of bytes 0..19
 *
 * record, at offset 24 and then back to back (25 bytes + payload)
 *   0           4           8                   16                  24   25
 *   +-----------+-----------+-------------------+-------------------+----+---------------+
 *   | CRC32C    | length    | LSN (long)        | synced LSN (long) |type| payload ...   |
 *   +-----------+-----------+-------------------+-------------------+----+---------------+
 *   CRC32C of bytes 4..(25 + length - 1): the length, the rest of the header and the payload
 * </pre>
 *
 * <p>The synced LSN of a record is the highest LSN that was durable (fsynced) when the record was written: every
 * record at or below it had been acknowledged or could have been. Recovery uses it to tell a torn tail from
 * corruption (see {@link WriteAheadLog}). Stateless; the checksum helpers take their buffers' positions as given and
 * do not move them.
 */
final class WalFormat {

    static final byte[] MAGIC = "NCUBEWAL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    static final int SEGMENT_MAGIC_OFFSET = 0;
    static final int SEGMENT_VERSION_OFFSET = 8;
    static final int SEGMENT_FIRST_LSN_OFFSET = 12;
    static final int SEGMENT_CRC_OFFSET = 20;
    static final int SEGMENT_HEADER_BYTES = 24;

    static final int RECORD_CRC_OFFSET = 0;
    static final int RECORD_LENGTH_OFFSET = 4;
    static final int RECORD_LSN_OFFSET = 8;
    static final int RECORD_SYNCED_LSN_OFFSET = 16;
    static final int RECORD_TYPE_OFFSET = 24;
    static final int RECORD_HEADER_BYTES = 25;

    /** The largest payload a record may carry: a bound on what a damaged length field can make recovery read. */
    static final int MAX_PAYLOAD_BYTES = 1 << 30;

    /** The LSN of the first record of a new log. */
    static final long FIRST_LSN = 1;

    private WalFormat() {}

    /** The segment header for a segment whose first record will have {@code firstLsn}, ready to write. */
    static ByteBuffer segmentHeader(long firstLsn) {
        ByteBuffer b = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        b.put(SEGMENT_MAGIC_OFFSET, MAGIC);
        b.putInt(SEGMENT_VERSION_OFFSET, VERSION);
        b.putLong(SEGMENT_FIRST_LSN_OFFSET, firstLsn);
        b.putInt(SEGMENT_CRC_OFFSET, crc(b, 0, SEGMENT_CRC_OFFSET));
        return b;
    }

    /**
     * Why {@code header} (the first {@link #SEGMENT_HEADER_BYTES} bytes of a segment, from index 0) is not a valid
     * segment header, or null when it is.
     */
    static String segmentHeaderProblem(ByteBuffer header) {
        if (!header.slice(SEGMENT_MAGIC_OFFSET, MAGIC.length).equals(ByteBuffer.wrap(MAGIC))) {
            return "not a numacube WAL segment (bad magic)";
        }
        if (header.getInt(SEGMENT_CRC_OFFSET) != crc(header, 0, SEGMENT_CRC_OFFSET)) {
            return "segment header checksum mismatch";
        }
        int version = header.getInt(SEGMENT_VERSION_OFFSET);
        if (version != VERSION) {
            return "unsupported WAL format version=" + version + " (this build reads version " + VERSION + ")";
        }
        return null;
    }

    /** Bytes of a record with a payload of {@code payloadBytes}. */
    static int recordBytes(int payloadBytes) {
        return RECORD_HEADER_BYTES + payloadBytes;
    }

    /** Writes one record at {@code b}'s position and moves the position past it. */
    static void putRecord(ByteBuffer b, long lsn, long syncedLsn, byte type, byte[] payload) {
        int start = b.position();
        b.putInt(start + RECORD_LENGTH_OFFSET, payload.length);
        b.putLong(start + RECORD_LSN_OFFSET, lsn);
        b.putLong(start + RECORD_SYNCED_LSN_OFFSET, syncedLsn);
        b.put(start + RECORD_TYPE_OFFSET, type);
        b.put(start + RECORD_HEADER_BYTES, payload);
        int end = start + recordBytes(payload.length);
        b.putInt(start + RECORD_CRC_OFFSET, crc(b, start + RECORD_LENGTH_OFFSET, end));
        b.position(end);
    }

    /** The CRC32C of bytes {@code from} (inclusive) to {@code to} (exclusive) of {@code b}, by absolute index. */
    static int crc(ByteBuffer b, int from, int to) {
        CRC32C crc = new CRC32C();
        crc.update(b.slice(from, to - from));
        return (int) crc.getValue();
    }

    /** The file name of the segment whose first record has {@code firstLsn}: {@code wal-<20 digits>.log}. */
    static String segmentName(long firstLsn) {
        return String.format("wal-%020d.log", firstLsn);
    }

    /** The first LSN a segment file name states, or -1 when {@code name} is not a segment name. */
    static long firstLsnOfName(String name) {
        if (name.length() != 28 || !name.startsWith("wal-") || !name.endsWith(".log")) {
            return -1;
        }
        String digits = name.substring(4, 24);
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
