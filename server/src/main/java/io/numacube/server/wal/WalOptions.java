package io.numacube.server.wal;

import io.numacube.numa.base.NumacubeException;
import java.util.function.LongConsumer;

/**
 * How a {@link WriteAheadLog} is opened. Immutable.
 *
 * @param segmentSizeBytes       a segment file is closed and a new one started when the next record would take it
 *                               past this size; a record larger than it gets a segment of its own. At least
 *                               {@link #MIN_SEGMENT_SIZE_BYTES}. Example: 64 MiB, {@code 67_108_864}
 * @param fsyncLatencyNanos      told the duration of every force of a segment file, in nanoseconds, on the log's
 *                               flusher thread right after the force: it must be quick and must not throw (what it
 *                               throws is logged and dropped). While it runs, no other batch is written, so a slow
 *                               observer slows every appender
 */
public record WalOptions(long segmentSizeBytes, LongConsumer fsyncLatencyNanos) {

    /** The default segment size, 64 MiB. */
    public static final long DEFAULT_SEGMENT_SIZE_BYTES = 64L << 20;

    /** The smallest segment size allowed, 1 KiB. */
    public static final long MIN_SEGMENT_SIZE_BYTES = 1024;

    public WalOptions {
        if (segmentSizeBytes < MIN_SEGMENT_SIZE_BYTES) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "WAL segment size too small: segment-size-bytes=" + segmentSizeBytes + " minimum="
                            + MIN_SEGMENT_SIZE_BYTES);
        }
        if (fsyncLatencyNanos == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "WAL fsync latency observer missing: pass nanos -> {}");
        }
    }

    /** 64 MiB segments, fsync latencies not observed. */
    public static WalOptions defaults() {
        return new WalOptions(DEFAULT_SEGMENT_SIZE_BYTES, nanos -> {});
    }

    public WalOptions withSegmentSizeBytes(long bytes) {
        return new WalOptions(bytes, fsyncLatencyNanos);
    }

    public WalOptions withFsyncLatencyNanos(LongConsumer observer) {
        return new WalOptions(segmentSizeBytes, observer);
    }
}
