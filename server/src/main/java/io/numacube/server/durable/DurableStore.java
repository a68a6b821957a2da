package io.numacube.server.durable;

import io.numacube.engine.CubeSnapshot;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.wal.DataDirectory;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.wal.WalRecord;
import io.numacube.server.wal.WalStats;
import io.numacube.server.wal.WriteAheadLog;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The durable state of {@code serve --data-dir DIR}: the locked {@link DataDirectory}, its {@link WriteAheadLog} of
 * writes ({@link WriteRecord}) and its latest checkpoint ({@link CheckpointManifest} and the table files it names).
 *
 * <p>The invariant that makes checkpoint plus WAL exact: the current manifest's checkpoint holds exactly the writes
 * with LSNs up to its {@code lsn}, and the WAL keeps every record after it. A checkpoint captures its cube snapshot and
 * the WAL's durable LSN together while {@link WriteService#quiesced} keeps every write from being between its log and
 * its apply, so the snapshot holds exactly the logged writes up to that LSN; writes that land while the files are
 * written get later LSNs and stay in the WAL, which is only truncated below the new LSN once the new manifest is
 * durable. Recovery loads the checkpoint (tables and keys) and replays the records after its LSN, once each, in LSN
 * order ({@link WriteService#replay}), which is the order they were first applied in (the write service logs and
 * applies one write at a time; upserts and deletes do not commute), so the tables come back as the writes left them.
 *
 * <p>Thread-safe: {@link #checkpoint} runs one at a time (the periodic one and the last one at shutdown may ask
 * together); {@link #batchLog}'s appends from any number of threads. Owns the directory's lock and the WAL until
 * {@link #close}.
 */
public final class DurableStore implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DurableStore.class.getName());

    private final DataDirectory dir;
    private final WriteAheadLog wal;
    private volatile CheckpointManifest manifest;
    private volatile long walBytesAtCheckpoint;
    private boolean closed;

    private DurableStore(DataDirectory dir, WriteAheadLog wal, CheckpointManifest manifest) {
        this.dir = dir;
        this.wal = wal;
        this.manifest = manifest;
    }

    /**
     * Locks {@code path} (created if missing), reads its manifest and opens its WAL (cutting a torn tail), and deletes
     * the files of a checkpoint a crash left without a manifest.
     *
     * @throws NumacubeException 55006 when another server holds the directory; XX001 naming the file when the manifest
     *     or the WAL is damaged; PLATFORM when it cannot be read or written
     */
    public static DurableStore open(Path path, WalOptions walOptions) {
        DataDirectory dir = DataDirectory.open(path);
        WriteAheadLog wal = null;
        try {
            CheckpointManifest manifest = dir.read(CheckpointManifest.FILE_NAME)
                    .map(bytes -> CheckpointManifest.parse(path.resolve(CheckpointManifest.FILE_NAME), bytes))
                    .orElse(null);
            wal = WriteAheadLog.open(dir.walDirectory(), walOptions);
            if (manifest == null && wal.durableLsn() > 0) {
                // the first start checkpoints before it takes a write: a log of writes without a manifest is damage,
                // and starting afresh over it would cover its acknowledged writes with a checkpoint lacking them
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "XX001",
                        "the data directory has no manifest but its WAL holds writes: dir=" + path
                                + " wal-durable-lsn=" + wal.durableLsn() + " manifest="
                                + path.resolve(CheckpointManifest.FILE_NAME)
                                + " is missing — restore the data directory from a backup; nothing was deleted",
                        null,
                        null);
            }
            long covered = manifest == null ? 0 : manifest.lsn();
            if (wal.durableLsn() < covered) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "XX001",
                        "the WAL ends before the checkpoint: checkpoint-lsn=" + covered + " wal-durable-lsn="
                                + wal.durableLsn() + " dir=" + path + " — its segments were removed; restore the data"
                                + " directory from a backup",
                        null,
                        null);
            }
            if (wal.durableLsn() > covered && wal.oldestLsn() > covered + 1) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "XX001",
                        "the WAL does not continue the checkpoint: checkpoint-lsn=" + covered + " oldest-wal-lsn="
                                + wal.oldestLsn() + " dir=" + path + " — records in between are missing; restore the"
                                + " data directory from a backup",
                        null,
                        null);
            }
            CheckpointFiles.deleteAllBut(path, manifest == null ? 0 : manifest.generation());
            return new DurableStore(dir, wal, manifest);
        } catch (IOException | RuntimeException e) {
            if (wal != null) {
                wal.close();
            }
            dir.close();
            if (e instanceof IOException io) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "58030",
                        "cannot clean up the data directory: dir=" + path + " error=" + io.getMessage(),
                        null,
                        io);
            }
            throw (RuntimeException) e;
        }
    }

    public Path path() {
        return dir.path();
    }

    /** The current checkpoint's manifest; empty for a directory no checkpoint was written to yet. */
    public Optional<CheckpointManifest> manifest() {
        return Optional.ofNullable(manifest);
    }

    /** Whether the directory holds tables: a checkpoint was written (at the latest, at the first start's end). */
    public boolean holdsData() {
        return manifest != null;
    }

    /**
     * The shard of a split table this directory's data is ({@link #recordShard}); empty when its server holds every row
     * (or it holds no data yet).
     *
     * @throws NumacubeException XX001 naming the file when it does not read
     */
    public Optional<io.numacube.engine.Shard> shard() {
        return dir.read(ShardFile.FILE_NAME).map(b -> ShardFile.read(dir.path().resolve(ShardFile.FILE_NAME), b));
    }

    /**
     * Records that this directory's data is {@code shard} (null: every row, the record removed), durably; called at
     * the first start, before the first checkpoint, so that a checkpoint never exists without its shard.
     */
    public void recordShard(io.numacube.engine.Shard shard) {
        if (holdsData()) {
            throw new IllegalStateException(
                    "a directory's shard is recorded before its first checkpoint: dir=" + path());
        }
        if (shard != null) {
            dir.writeAtomically(ShardFile.FILE_NAME, ShardFile.write(shard));
            return;
        }
        try {
            // a leftover of a first start that crashed before its checkpoint; the manifest's write forces the
            // directory, so the removal is durable before any checkpoint is
            java.nio.file.Files.deleteIfExists(dir.path().resolve(ShardFile.FILE_NAME));
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "58030",
                    "cannot remove the shard file: dir=" + path() + " error=" + e.getMessage(),
                    null,
                    e);
        }
    }

    /**
     * Makes a write durable as one WAL record before {@link WriteService} appends it: written and fsynced at once, or
     * queued ({@code submit}) and waited for later, sharing the fsync with the records queued meanwhile.
     */
    public WriteService.BatchLog batchLog() {
        return new WriteService.BatchLog() {
            @Override
            public void write(List<WriteService.Batch> batches) {
                wal.append(WriteRecord.TYPE, WriteRecord.encode(batches));
            }

            @Override
            public WriteService.Durable submit(List<WriteService.Batch> batches) {
                long lsn = wal.submit(WriteRecord.TYPE, WriteRecord.encode(batches));
                return () -> wal.awaitDurable(lsn);
            }
        };
    }

    /**
     * What recovery did.
     *
     * @param tables        tables loaded from the checkpoint
     * @param rowsLoaded    their rows
     * @param checkpointLsn the LSN the checkpoint covers
     * @param writes        WAL records replayed after it
     * @param failedAlike   of those, writes holding a DELETE or UPDATE that failed again as when first applied (no
     *                      change)
     * @param rowsChanged   rows the replayed writes added, less those they deleted
     * @param nanos         how long it took
     */
    public record Recovered(
            List<String> tables,
            long rowsLoaded,
            long checkpointLsn,
            long writes,
            long failedAlike,
            long rowsChanged,
            long nanos) {}

    /**
     * Loads the checkpoint's tables into {@code writes}' cube (placed as any load is) with their keys, then applies every
     * write the WAL holds after the checkpoint's LSN, in LSN order.
     *
     * @throws NumacubeException XX001 naming the file for a damaged checkpoint file, the LSN for a record that cannot be
     *     replayed; nothing is served then
     */
    public Recovered recover(WriteService writes) {
        CheckpointManifest m = manifest;
        if (m == null) {
            throw new IllegalStateException("no checkpoint to recover from: dir=" + dir.path());
        }
        long start = System.nanoTime();
        long loaded = CheckpointLoader.load(dir.path(), m, writes.cube());
        for (CheckpointManifest.TableFile t : m.tables()) {
            if (!t.key().isEmpty()) {
                writes.cube().setKey(t.schema().name(), t.key());
            }
        }
        long[] replayed = {0, 0};
        wal.replay(m.lsn(), r -> replayed[replay(writes, r) ? 0 : 1]++);
        long rows = writes.cube().tables().stream()
                .mapToLong(writes.cube()::rowCount)
                .sum();
        return new Recovered(
                m.tables().stream().map(t -> t.schema().name()).toList(),
                loaded,
                m.lsn(),
                replayed[0] + replayed[1],
                replayed[1],
                rows - loaded,
                System.nanoTime() - start);
    }

    /**
     * Applies one logged write; false for a write holding a DELETE or UPDATE that the cube refused for what it says, as
     * it did
     * when the write was first applied (it changed nothing then and changes nothing now).
     */
    private boolean replay(WriteService writes, WalRecord r) {
        List<WriteService.Batch> batches = WriteRecord.decode(r.lsn(), r.type(), r.payload());
        try {
            writes.replay(batches);
            return true;
        } catch (NumacubeException e) {
            boolean statements = batches.stream().anyMatch(b -> b.format().isStatement());
            if (statements && WriteService.failsAlikeWhenReplayed(e)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "WAL record lsn={0} failed again as when it was first applied, changing nothing: {1}",
                        r.lsn(),
                        e.getMessage());
                return false;
            }
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "XX001",
                    "a WAL record cannot be replayed: lsn=" + r.lsn() + " dir=" + wal.directory() + " error="
                            + e.getMessage(),
                    null,
                    e);
        }
    }

    /**
     * What a checkpoint did.
     *
     * @param manifest the current checkpoint's manifest afterwards
     * @param written  false when it was skipped: the current checkpoint already held every logged write
     * @param rows     rows written
     * @param bytes    bytes of table files written
     * @param nanos    how long it took
     */
    public record Checkpointed(CheckpointManifest manifest, boolean written, long rows, long bytes, long nanos) {}

    /**
     * Writes every table of {@code writes}' cube as a new checkpoint covering the WAL's durable end, then truncates the
     * WAL below it and deletes the previous checkpoint's files. Writers wait only while the snapshot and the LSN are
     * captured; queries never wait. Skipped when the current checkpoint already covers every logged write.
     *
     * @throws NumacubeException PLATFORM when a file cannot be written (the previous checkpoint stays current); 58000
     *     when a logged write failed to be appended (then no checkpoint may be taken before a restart)
     */
    public synchronized Checkpointed checkpoint(WriteService writes) {
        long start = System.nanoTime();
        Capture c = writes.quiesced(() -> capture(writes));
        try (CubeSnapshot snapshot = c.snapshot()) {
            CheckpointManifest previous = manifest;
            if (previous != null && previous.lsn() == c.lsn() && keys(previous).equals(c.keys())) {
                return new Checkpointed(previous, false, 0, 0, System.nanoTime() - start);
            }
            long generation = previous == null ? 1 : previous.generation() + 1;
            CheckpointManifest written = CheckpointWriter.write(dir, snapshot, c.keys(), c.lsn(), generation);
            manifest = written;
            walBytesAtCheckpoint = c.walBytes();
            cleanUp(written);
            return new Checkpointed(
                    written,
                    true,
                    written.tables().stream()
                            .mapToLong(CheckpointManifest.TableFile::rows)
                            .sum(),
                    written.tables().stream()
                            .mapToLong(CheckpointManifest.TableFile::bytes)
                            .sum(),
                    System.nanoTime() - start);
        }
    }

    /** A snapshot, the tables' keys and the WAL position the snapshot holds exactly, captured together. */
    private record Capture(CubeSnapshot snapshot, Map<String, List<String>> keys, long lsn, long walBytes) {}

    private Capture capture(WriteService writes) {
        CubeSnapshot snapshot = writes.cube().openSnapshot();
        Map<String, List<String>> keys = new TreeMap<>();
        for (String t : snapshot.tables()) {
            List<String> key = writes.cube().keyColumns(t);
            if (!key.isEmpty()) {
                keys.put(t, key);
            }
        }
        return new Capture(snapshot, keys, wal.durableLsn(), wal.stats().bytes());
    }

    private static Map<String, List<String>> keys(CheckpointManifest m) {
        Map<String, List<String>> keys = new TreeMap<>();
        for (CheckpointManifest.TableFile t : m.tables()) {
            if (!t.key().isEmpty()) {
                keys.put(t.schema().name(), t.key());
            }
        }
        return keys;
    }

    /** Drops what the new checkpoint made unnecessary; a failure here leaves garbage, never a wrong state. */
    private void cleanUp(CheckpointManifest written) {
        try {
            wal.truncateBefore(written.lsn() + 1);
            CheckpointFiles.deleteAllBut(dir.path(), written.generation());
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "checkpoint {0} is durable, but cleaning up after it failed (retried at the next one): {1}",
                    written.generation(),
                    e.getMessage());
        }
    }

    /** WAL bytes written since the current checkpoint's snapshot was taken (or since the WAL was opened). */
    public long walBytesSinceCheckpoint() {
        return wal.stats().bytes() - walBytesAtCheckpoint;
    }

    /** Whether the WAL holds writes the current checkpoint does not. */
    public boolean hasWritesSinceCheckpoint() {
        CheckpointManifest m = manifest;
        return wal.durableLsn() > (m == null ? 0 : m.lsn());
    }

    public WalStats walStats() {
        return wal.stats();
    }

    /**
     * Closes the WAL (what was queued is made durable; later appends are refused) and releases the lock. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            wal.close();
        } finally {
            dir.close();
        }
    }
}
