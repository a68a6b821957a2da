package io.numacube.server.wal;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One record of the write-ahead log as replay delivers it: its log sequence number, the caller's type byte and the
 * caller's opaque payload. Records equal when their LSN, type and payload bytes are equal.
 *
 * <p>The payload array is handed over, not copied: replay allocates a fresh array for every record, and whoever
 * receives the record owns it.
 *
 * @param lsn     the log sequence number: 1 for the first record ever appended, then one more for each record
 * @param type    what the payload is, as the caller defines it; the log does not interpret it
 * @param payload the bytes the caller appended, unchanged
 */
public record WalRecord(long lsn, byte type, byte[] payload) {

    public WalRecord {
        if (payload == null) {
            throw new IllegalArgumentException("a WAL record needs a payload (an empty array for none): lsn=" + lsn);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WalRecord r && r.lsn == lsn && r.type == type && Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(lsn) * 31 + type * 17 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        String head = HexFormat.of().formatHex(payload, 0, Math.min(payload.length, 16));
        return "WalRecord[lsn=" + lsn + " type=" + type + " bytes=" + payload.length + " payload=" + head
                + (payload.length > 16 ? "...]" : "]");
    }
}
