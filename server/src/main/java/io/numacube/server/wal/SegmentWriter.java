package io.numacube.server.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.NavigableMap;
import java.util.function.LongConsumer;

/**
 * Appends commit batches to the active segment file and makes each durable with one force, starting a new segment
 * when the next record would take the active one past the size limit. A new segment is created with its header,
 * forced, and its name made durable by forcing the directory, before any record goes into it; the segment before it
 * is forced first, so that only the last segment can ever hold records that were not durable.
 *
 * <p>Not thread-safe: only the flusher thread calls it, one batch at a time. The counters may be read from any
 * thread. Owns the active segment's channel; {@link #close} closes it.
 */
final class SegmentWriter implements AutoCloseable {

    private static final int BUFFER_BYTES = 1 << 20;

    /** A record waiting for its batch: its LSN is fixed, its bytes not yet encoded. */
    record Pending(long lsn, byte type, byte[] payload) {}

    private final Path directory;
    private final long segmentSizeBytes;
    private final NavigableMap<Long, Path> segments;
    private final LongConsumer fsyncLatencyNanos;
    private FileChannel channel;
    private Path activePath;
    private long activeBytes;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private volatile long records;
    private volatile long bytes;
    private volatile long fsyncs;
    private volatile long batches;

    /**
     * @param segments the log's segments by first LSN, as recovery left them; a new segment is added to it (it must
     *                 be safe to read from other threads while this writer adds)
     * @param nextLsn  the LSN of the next record, which starts the first segment when there is none
     */
    SegmentWriter(Path directory, WalOptions options, NavigableMap<Long, Path> segments, long nextLsn)
            throws IOException {
        this.directory = directory;
        this.segmentSizeBytes = options.segmentSizeBytes();
        this.segments = segments;
        this.fsyncLatencyNanos = options.fsyncLatencyNanos();
        if (segments.isEmpty()) {
            startSegment(nextLsn);
        } else {
            activePath = segments.lastEntry().getValue();
            channel = FileChannel.open(activePath, StandardOpenOption.WRITE);
            activeBytes = channel.size();
            channel.position(activeBytes);
        }
    }

    /** The segment file records go to now. */
    Path activePath() {
        return activePath;
    }

    /**
     * Writes {@code batch} (records in LSN order, following the last one written) and returns once all of it is
     * durable.
     *
     * @param syncedLsn the highest LSN durable before this batch, recorded in each of its records
     */
    void writeDurably(List<Pending> batch, long syncedLsn) throws IOException {
        for (Pending p : batch) {
            int recordBytes = WalFormat.recordBytes(p.payload().length);
            long segmentBytes = activeBytes + buffer.position();
            if (segmentBytes > WalFormat.SEGMENT_HEADER_BYTES && segmentBytes + recordBytes > segmentSizeBytes) {
                writeBuffer();
                force();
                channel.close();
                startSegment(p.lsn());
            }
            if (buffer.remaining() < recordBytes) {
                writeBuffer();
                if (buffer.capacity() < recordBytes) {
                    buffer = ByteBuffer.allocateDirect(recordBytes);
                }
            }
            WalFormat.putRecord(buffer, p.lsn(), syncedLsn, p.type(), p.payload());
        }
        writeBuffer();
        force();
        if (buffer.capacity() > BUFFER_BYTES) {
            buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        }
        records += batch.size();
        batches++;
    }

    private void startSegment(long firstLsn) throws IOException {
        Path path = directory.resolve(WalFormat.segmentName(firstLsn));
        channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        activePath = path;
        activeBytes = 0;
        ByteBuffer header = WalFormat.segmentHeader(firstLsn);
        while (header.hasRemaining()) {
            activeBytes += channel.write(header);
        }
        bytes += activeBytes;
        force();
        DirectorySync.force(directory);
        fsyncs++;
        segments.put(firstLsn, path);
    }

    private void writeBuffer() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            int written = channel.write(buffer);
            activeBytes += written;
            bytes += written;
        }
        buffer.clear();
    }

    private void force() throws IOException {
        long start = System.nanoTime();
        channel.force(false);
        long nanos = System.nanoTime() - start;
        fsyncs++;
        try {
            fsyncLatencyNanos.accept(nanos);
        } catch (RuntimeException e) {
            System.getLogger(SegmentWriter.class.getName())
                    .log(System.Logger.Level.WARNING, "WAL fsync latency observer failed; ignored", e);
        }
    }

    long records() {
        return records;
    }

    long bytes() {
        return bytes;
    }

    long fsyncs() {
        return fsyncs;
    }

    long batches() {
        return batches;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
