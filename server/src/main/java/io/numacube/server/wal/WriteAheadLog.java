package io.numacube.server.wal;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * A write-ahead log in one directory: records appended with {@link #append} are durable when it returns (written and
 * fsynced, with the fsync shared by every record appended meanwhile), survive {@code kill -9} and power loss, and
 * come back, in LSN order with their exact bytes, from {@link #replay}.
 *
 * <p>Invariants: LSNs are consecutive from 1 with no gap, across segments too; every record up to {@link
 * #durableLsn} is on disk and was checked when the log was opened; only the last segment can end in a record that
 * was not acknowledged. Opening runs recovery: a torn tail (what a crash cut from an unacknowledged write) is cut off
 * with a warning naming file and offset, and any other damage throws {@link WalCorruptionException} naming file and
 * offset, before anything is replayed or appended. The log does not know what a checkpoint is: the caller writes one
 * covering records up to some LSN, then calls {@link #truncateBefore} to drop the segments it made unnecessary.
 *
 * <p>Thread-safe: {@link #append} from any number of threads (see {@link GroupCommit}); {@link #replay} and {@link
 * #truncateBefore} from any thread, each excluding the other. Owns the directory's segment files and one flusher
 * thread while open; {@link #close} stops it. Two logs must never be open on one directory: {@link DataDirectory}
 * holds the lock that makes sure of it.
 */
public final class WriteAheadLog implements AutoCloseable {

    private final Path directory;
    private final NavigableMap<Long, Path> segments;
    private final SegmentWriter writer;
    private final GroupCommit commit;
    private final ReadWriteLock retention = new ReentrantReadWriteLock();

    private WriteAheadLog(Path directory, NavigableMap<Long, Path> segments, SegmentWriter writer, long nextLsn) {
        this.directory = directory;
        this.segments = segments;
        this.writer = writer;
        this.commit = new GroupCommit(writer, nextLsn);
    }

    /**
     * Opens the log in {@code directory} (created if missing), recovering it: checks every segment, cuts a torn
     * tail, deletes a segment whose creation a crash interrupted.
     *
     * @throws WalCorruptionException when a record or header is damaged where a crash cannot explain it
     * @throws NumacubeException      (PLATFORM) when the directory or a segment cannot be read or written
     */
    public static WriteAheadLog open(Path directory, WalOptions options) {
        try {
            Files.createDirectories(directory);
            Recovery.Result recovered = Recovery.recover(directory);
            NavigableMap<Long, Path> segments = new ConcurrentSkipListMap<>(recovered.segments());
            SegmentWriter writer = new SegmentWriter(directory, options, segments, recovered.nextLsn());
            return new WriteAheadLog(directory, segments, writer, recovered.nextLsn());
        } catch (IOException e) {
            throw ioFailure(directory, "cannot open the WAL", e);
        }
    }

    /**
     * Appends one record and returns its LSN once it is durable. The payload is not copied: it must not change until
     * this returns. Blocks for about one fsync, uninterruptibly (an interrupt stays pending on the thread).
     *
     * @param type    what the payload is, for the caller's replay; the log does not interpret it
     * @param payload at most 1 GiB
     * @throws NumacubeException (PLATFORM, 58030) when the record may not be durable because a write or fsync failed;
     *                           from then on the log refuses every append
     */
    public long append(byte type, byte[] payload) {
        checkPayload(payload);
        return commit.append(type, payload);
    }

    /**
     * Queues one record and returns its LSN at once, before it is durable: {@link #awaitDurable} then waits for it.
     * Records get their LSNs, and are written, in the order of the calls, so a caller that serializes its calls
     * orders its records; the fsync a caller then waits for is shared with every record queued meanwhile. The payload
     * is not copied: it must not change until the record is durable.
     *
     * @throws NumacubeException (PLATFORM, 58030) when the log refuses appends after a failed write or fsync
     */
    public long submit(byte type, byte[] payload) {
        checkPayload(payload);
        return commit.enqueue(type, payload);
    }

    /**
     * Returns once every record up to {@code lsn} is durable. Blocks for about one fsync, uninterruptibly.
     *
     * @throws NumacubeException (PLATFORM, 58030) when it may not be durable because a write or fsync failed
     */
    public void awaitDurable(long lsn) {
        commit.awaitDurable(lsn);
    }

    private static void checkPayload(byte[] payload) {
        if (payload == null || payload.length > WalFormat.MAX_PAYLOAD_BYTES) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "WAL record payload missing or too large: bytes=" + (payload == null ? "null" : payload.length)
                            + " max=" + WalFormat.MAX_PAYLOAD_BYTES);
        }
    }

    /**
     * Hands every durable record after {@code fromLsnExclusive} to {@code consumer}, in LSN order, checking each
     * again; records appended while it runs may or may not be included. Returns how many it handed over. The
     * consumer runs on this thread while segments are kept from deletion: it must not call {@link #truncateBefore}.
     *
     * @param fromLsnExclusive the LSN the caller's state already covers (its checkpoint's), 0 for everything
     * @throws NumacubeException      (INVALID_INPUT) when records after {@code fromLsnExclusive} were truncated
     * @throws WalCorruptionException when a record no longer reads back as written
     */
    public long replay(long fromLsnExclusive, Consumer<WalRecord> consumer) {
        retention.readLock().lock();
        try {
            long untilLsn = commit.durableLsn();
            long oldest = oldestLsn();
            if (fromLsnExclusive + 1 < oldest) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "WAL records before lsn=" + oldest + " were truncated: replay-from-lsn="
                                + (fromLsnExclusive + 1) + " dir=" + directory
                                + " — replay from a checkpoint that covers lsn=" + (oldest - 1));
            }
            return new LogReplay(segments, fromLsnExclusive, untilLsn).run(consumer);
        } catch (IOException e) {
            throw ioFailure("cannot read the WAL", e);
        } finally {
            retention.readLock().unlock();
        }
    }

    /**
     * Deletes every segment whose records all have LSNs below {@code lsn}; the caller has made them unnecessary with
     * a durable checkpoint covering up to {@code lsn - 1}. The active segment is never deleted, so a segment holding
     * {@code lsn} or later stays. Returns how many segments it deleted.
     *
     * @param lsn at most {@link #durableLsn} + 1
     */
    public int truncateBefore(long lsn) {
        long durable = commit.durableLsn();
        if (lsn > durable + 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "WAL truncation past its durable end: truncate-before-lsn=" + lsn + " durable-lsn=" + durable);
        }
        retention.writeLock().lock();
        try {
            List<Path> deleted = new ArrayList<>();
            for (Map.Entry<Long, Path> e = segments.firstEntry(); e != null; e = segments.firstEntry()) {
                Long nextFirst = segments.higherKey(e.getKey());
                if (nextFirst == null || nextFirst > lsn) {
                    break;
                }
                segments.remove(e.getKey());
                Files.delete(e.getValue());
                deleted.add(e.getValue());
            }
            if (!deleted.isEmpty()) {
                DirectorySync.force(directory);
            }
            return deleted.size();
        } catch (IOException e) {
            throw ioFailure("cannot delete a WAL segment", e);
        } finally {
            retention.writeLock().unlock();
        }
    }

    /** The LSN the next append will get. */
    public long nextLsn() {
        return commit.nextLsn();
    }

    /** The highest LSN that is durable; 0 (or the LSN before the oldest kept) when nothing was appended. */
    public long durableLsn() {
        return commit.durableLsn();
    }

    /** The LSN of the oldest record still kept (or of the next record, when the log has none). */
    public long oldestLsn() {
        return segments.firstKey();
    }

    /** The segment files, oldest first. */
    public List<Path> segmentFiles() {
        return List.copyOf(segments.values());
    }

    public Path directory() {
        return directory;
    }

    public WalStats stats() {
        return new WalStats(writer.records(), writer.bytes(), writer.fsyncs(), writer.batches());
    }

    /** Makes what was queued durable, stops the flusher and closes the files; later appends are refused. */
    @Override
    public void close() {
        try {
            commit.close();
        } catch (IOException e) {
            throw ioFailure("cannot close the WAL", e);
        }
    }

    private NumacubeException ioFailure(String what, IOException e) {
        return ioFailure(directory, what, e);
    }

    private static NumacubeException ioFailure(Path directory, String what, IOException e) {
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            return new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    GroupCommit.IO_ERROR,
                    what + ": file=" + fs.getFile() + " error=" + IoReason.of(e),
                    null,
                    e);
        }
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                GroupCommit.IO_ERROR,
                what + ": dir=" + directory + " error=" + IoReason.of(e),
                null,
                e);
    }
}
