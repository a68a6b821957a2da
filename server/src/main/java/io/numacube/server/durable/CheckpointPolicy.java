package io.numacube.server.durable;

import io.numacube.numa.base.NumacubeException;
import java.time.Duration;

/**
 * When the server writes a checkpoint besides at start and at shutdown: once {@code walBytes} of WAL were written
 * since the last one, or once {@code interval} has passed since it and a write came in. A checkpoint writes every
 * table whole, so it costs about as much as the data; the WAL a restart replays stays below about {@code walBytes}.
 * Immutable.
 *
 * @param interval the longest time between checkpoints while writes come in; {@link Duration#ZERO} for no limit
 * @param walBytes the most WAL bytes between checkpoints; 0 for no limit. Example: 256 MiB, {@code 268_435_456}
 */
public record CheckpointPolicy(Duration interval, long walBytes) {

    /** Every 10 minutes or 256 MiB of WAL, whichever comes first. */
    public static final CheckpointPolicy DEFAULT = new CheckpointPolicy(Duration.ofMinutes(10), 256L << 20);

    public CheckpointPolicy {
        if (interval == null || interval.isNegative() || walBytes < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a checkpoint interval and WAL size are 0 (no limit) or more: interval=" + interval + " wal-bytes="
                            + walBytes);
        }
    }

    /** Whether a checkpoint is due, {@code sinceLast} after the last one, with these WAL bytes and new writes. */
    boolean due(Duration sinceLast, long walBytesSince, boolean newWrites) {
        if (!newWrites) {
            return false;
        }
        return (walBytes > 0 && walBytesSince >= walBytes)
                || (!interval.isZero() && sinceLast.compareTo(interval) >= 0);
    }
}
