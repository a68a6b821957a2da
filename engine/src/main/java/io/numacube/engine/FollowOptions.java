package io.numacube.engine;

import java.time.Duration;

/**
 * How a cube follows the machine ({@link Cube#followMachine}): how often the process's bindings are read again and
 * how fast partitions are copied to their new node. Immutable.
 *
 * @param period         time between two readings of the bindings (sched_getaffinity, the cgroup cpuset, free
 *                       memory per node); at least 10 ms
 * @param bytesPerSecond at most this many bytes of partitions copied per second while moving them (so queries keep
 *                       their memory bandwidth); 0 for no limit
 * @param shortBelowBytes a data node with less memory available than this is short: its new data goes to the
 *                        nearest node with room ({@link io.numacube.numa.MemoryRoom})
 * @param roomAgainBytes  a short node has room again with this much available (more than {@code shortBelowBytes}:
 *                        hysteresis), and data spreads back onto it
 * @param moveInPlace     move a partition's pages where they are (mbind MPOL_MF_MOVE) where the kernel allows it,
 *                        rather than copy and swap; off by default: under QEMU's emulation it took 34.8 s for what a
 *                        copy does in 0.8 s (not yet measured on real hardware)
 */
public record FollowOptions(
        Duration period, long bytesPerSecond, long shortBelowBytes, long roomAgainBytes, boolean moveInPlace) {

    /** 256 MiB/s: a 3 GiB table moves in about 12 s, a small share of a socket's bandwidth. */
    public static final long DEFAULT_BYTES_PER_SECOND = 256L << 20;

    public FollowOptions {
        java.util.Objects.requireNonNull(period, "period must not be null");
        if (period.toMillis() < 10) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "the bindings' watch period must be at least 10 ms: period=" + period.toMillis() + "ms");
        }
        if (bytesPerSecond < 0) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "the migration rate must be 0 (no limit) or more bytes per second: bytesPerSecond="
                            + bytesPerSecond);
        }
        io.numacube.numa.MemoryRoom.of(shortBelowBytes, roomAgainBytes);
    }

    /** With the given marks, partitions moved by copy and swap. */
    public FollowOptions(Duration period, long bytesPerSecond, long shortBelowBytes, long roomAgainBytes) {
        this(period, bytesPerSecond, shortBelowBytes, roomAgainBytes, false);
    }

    /** Every {@code period}, at {@code bytesPerSecond}, with the default memory marks (256 MiB short, 1 GiB room). */
    public FollowOptions(Duration period, long bytesPerSecond) {
        this(
                period,
                bytesPerSecond,
                io.numacube.numa.MemoryRoom.DEFAULT_LOW_BYTES,
                io.numacube.numa.MemoryRoom.DEFAULT_HIGH_BYTES);
    }

    /** Every second, at {@link #DEFAULT_BYTES_PER_SECOND}. */
    public static FollowOptions defaults() {
        return new FollowOptions(Duration.ofSeconds(1), DEFAULT_BYTES_PER_SECOND);
    }
}
