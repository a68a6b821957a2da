package io.numacube.server.wal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one segment file front to back: its header, then record after record, checking each record's length,
 * checksum and LSN, and says where and why the first bad one is bad. It reads the file as it was when opened (its
 * size then) through a read-ahead window, so that small records cost no system call each.
 *
 * <p>Not thread-safe: one reader per thread. Owns its file channel; {@link #close} closes it.
 */
final class SegmentReader implements AutoCloseable {

    private static final int WINDOW_BYTES = 1 << 20;
    private static final byte[] NO_PAYLOAD = new byte[0];

    /** What {@link #next} found at the reader's offset. */
    sealed interface Outcome {}

    /** A good record at {@code offset}, of {@code bytes} bytes; its payload is null unless asked for. */
    record Good(WalRecord record, long syncedLsn, long offset, int bytes) implements Outcome {}

    /** The clean end of the segment: the last record ends where the file does. */
    record End(long offset) implements Outcome {}

    /** A record at {@code offset} that is not what the log wrote, or not all of it. */
    record Bad(long offset, String reason) implements Outcome {}

    private final Path path;
    private final FileChannel channel;
    private final long size;
    private ByteBuffer window = ByteBuffer.allocate(0);
    private long windowStart;
    private long offset = WalFormat.SEGMENT_HEADER_BYTES;

    private SegmentReader(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        this.size = channel.size();
    }

    static SegmentReader open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new SegmentReader(path, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** The file's size when the reader opened it. */
    long size() {
        return size;
    }

    /** Why the segment header is not valid, or null when it is; {@link #headerFirstLsn} is then safe to call. */
    String headerProblem() throws IOException {
        if (size < WalFormat.SEGMENT_HEADER_BYTES) {
            return "segment header cut short: size=" + size + " header-bytes=" + WalFormat.SEGMENT_HEADER_BYTES;
        }
        return WalFormat.segmentHeaderProblem(bytesAt(0, WalFormat.SEGMENT_HEADER_BYTES));
    }

    long headerFirstLsn() throws IOException {
        return bytesAt(0, WalFormat.SEGMENT_HEADER_BYTES).getLong(WalFormat.SEGMENT_FIRST_LSN_OFFSET);
    }

    /**
     * Reads the record at the reader's offset, which must have LSN {@code expectedLsn}, and moves past it when it is
     * good; a bad record leaves the offset on it.
     *
     * @param withPayload whether to copy the payload out (replay) or only check it (recovery)
     */
    Outcome next(long expectedLsn, boolean withPayload) throws IOException {
        if (offset == size) {
            return new End(offset);
        }
        String problem = recordProblem(offset, expectedLsn, Long.MAX_VALUE);
        if (problem != null) {
            return new Bad(offset, problem);
        }
        ByteBuffer header = bytesAt(offset, WalFormat.RECORD_HEADER_BYTES);
        int length = header.getInt(WalFormat.RECORD_LENGTH_OFFSET);
        byte[] payload = null;
        if (withPayload) {
            payload = new byte[length];
            bytesAt(offset + WalFormat.RECORD_HEADER_BYTES, length).get(0, payload);
        }
        WalRecord record = new WalRecord(
                expectedLsn, header.get(WalFormat.RECORD_TYPE_OFFSET), payload == null ? NO_PAYLOAD : payload);
        Good good = new Good(
                record, header.getLong(WalFormat.RECORD_SYNCED_LSN_OFFSET), offset, WalFormat.recordBytes(length));
        offset += good.bytes();
        return good;
    }

    /**
     * Why the bytes at {@code at} are not a whole, intact record with an LSN from {@code minLsn} to {@code maxLsn}
     * (a record needs exactly {@code minLsn} when both are equal), or null when they are one.
     */
    String recordProblem(long at, long minLsn, long maxLsn) throws IOException {
        long left = size - at;
        if (left < WalFormat.RECORD_HEADER_BYTES) {
            return "record header cut short: bytes-left=" + left + " header-bytes=" + WalFormat.RECORD_HEADER_BYTES;
        }
        ByteBuffer header = bytesAt(at, WalFormat.RECORD_HEADER_BYTES);
        int length = header.getInt(WalFormat.RECORD_LENGTH_OFFSET);
        if (length < 0 || length > WalFormat.MAX_PAYLOAD_BYTES || length > left - WalFormat.RECORD_HEADER_BYTES) {
            return "record length past the end of the file: length=" + length + " bytes-left=" + left;
        }
        long lsn = header.getLong(WalFormat.RECORD_LSN_OFFSET);
        long syncedLsn = header.getLong(WalFormat.RECORD_SYNCED_LSN_OFFSET);
        boolean plausible = lsn >= minLsn && lsn <= maxLsn && syncedLsn < lsn;
        if (!plausible && minLsn != maxLsn) {
            // a resynchronising scan: skip the checksum where the header cannot be a later record's
            return "no record here";
        }
        ByteBuffer whole = bytesAt(at, WalFormat.recordBytes(length));
        if (whole.getInt(WalFormat.RECORD_CRC_OFFSET)
                != WalFormat.crc(whole, WalFormat.RECORD_LENGTH_OFFSET, whole.limit())) {
            return "record checksum mismatch";
        }
        if (lsn != minLsn && minLsn == maxLsn) {
            return "LSN out of sequence: lsn=" + lsn + " expected=" + minLsn;
        }
        if (syncedLsn >= lsn) {
            return "synced LSN not below the record's own: lsn=" + lsn + " synced-lsn=" + syncedLsn;
        }
        return null;
    }

    /** The synced LSN of the record at {@code at}, which {@link #recordProblem} found good. */
    long syncedLsnAt(long at) throws IOException {
        return bytesAt(at, WalFormat.RECORD_HEADER_BYTES).getLong(WalFormat.RECORD_SYNCED_LSN_OFFSET);
    }

    /** The LSN of the record at {@code at}, which {@link #recordProblem} found good. */
    long lsnAt(long at) throws IOException {
        return bytesAt(at, WalFormat.RECORD_HEADER_BYTES).getLong(WalFormat.RECORD_LSN_OFFSET);
    }

    /**
     * The {@code count} bytes at file offset {@code at} (all within the size), from index 0 of the buffer returned,
     * which is valid until the next call.
     */
    private ByteBuffer bytesAt(long at, int count) throws IOException {
        if (at >= windowStart && at + count <= windowStart + window.limit()) {
            return window.slice((int) (at - windowStart), count);
        }
        if (window.capacity() < Math.max(count, WINDOW_BYTES)) {
            window = ByteBuffer.allocate(Math.max(count, WINDOW_BYTES));
        }
        window.clear();
        window.limit((int) Math.min(window.capacity(), size - at));
        windowStart = at;
        while (window.hasRemaining()) {
            if (channel.read(window, at + window.position()) < 0) {
                throw new EOFException("segment shorter than when opened: file=" + path + " size=" + size);
            }
        }
        window.flip();
        return window.slice(0, count);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
