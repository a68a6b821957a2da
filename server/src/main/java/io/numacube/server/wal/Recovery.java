package io.numacube.server.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Brings a log directory back to a state new records can be appended to, after any stop, clean or not: finds the
 * segments, checks every header and every record (length, checksum, LSN continuity within and across segments),
 * cuts a torn tail off the last segment, and says where the next record goes.
 *
 * <p>A bad record is a <em>torn tail</em> only when it is in the last segment and no record that was written after
 * it had become durable follows it: such a record was never acknowledged (its fsync had not returned), so a crash may
 * have left it partial, zeroed or, after power loss, with a later record of its own commit batch intact behind it.
 * The file is cut to the bad record's offset and forced, with a warning naming file and offset. Any other bad record
 * (in a finished segment, or followed by a record whose synced LSN covers it) is corruption: a {@link
 * WalCorruptionException}, and nothing is changed. A last segment that is no more than a cut-short header is a
 * segment whose creation a crash interrupted (no record can be in it), and is deleted.
 *
 * <p>Stateless; runs before the log accepts appends, on the opener's thread.
 */
final class Recovery {

    private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

    /**
     * What recovery left: the segments by first LSN (none for a new log), the LSN the next record gets, and the
     * size of the last segment.
     */
    record Result(NavigableMap<Long, Path> segments, long nextLsn, long lastSegmentBytes) {}

    private Recovery() {}

    static Result recover(Path directory) throws IOException {
        NavigableMap<Long, Path> segments = segmentsIn(directory);
        long expected = -1;
        long lastBytes = 0;
        List<Map.Entry<Long, Path>> entries = new ArrayList<>(segments.entrySet());
        for (int i = 0; i < entries.size(); i++) {
            Path path = entries.get(i).getValue();
            boolean last = i == entries.size() - 1;
            try (SegmentReader reader = SegmentReader.open(path)) {
                String headerProblem = reader.headerProblem();
                if (headerProblem != null && last && reader.size() <= WalFormat.SEGMENT_HEADER_BYTES) {
                    reader.close();
                    dropInterruptedSegment(directory, path, headerProblem);
                    segments.remove(entries.get(i).getKey());
                    break;
                }
                long first = checkHeader(reader, headerProblem, entries.get(i).getKey(), expected);
                expected = scan(reader, first, last);
                lastBytes = Files.size(path);
            }
        }
        return new Result(segments, segments.isEmpty() ? WalFormat.FIRST_LSN : expected, lastBytes);
    }

    /** The segment files of {@code directory} by the first LSN in their names; other files are not the log's. */
    static NavigableMap<Long, Path> segmentsIn(Path directory) throws IOException {
        NavigableMap<Long, Path> segments = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                long first = WalFormat.firstLsnOfName(file.getFileName().toString());
                if (first >= 0) {
                    segments.put(first, file);
                }
            }
        }
        return segments;
    }

    private static long checkHeader(SegmentReader reader, String problem, long nameLsn, long expected)
            throws IOException {
        if (problem != null) {
            throw new WalCorruptionException(reader.path(), 0, problem);
        }
        long first = reader.headerFirstLsn();
        if (first != nameLsn) {
            throw new WalCorruptionException(
                    reader.path(),
                    WalFormat.SEGMENT_FIRST_LSN_OFFSET,
                    "segment header and file name disagree: header-first-lsn=" + first + " name-first-lsn=" + nameLsn);
        }
        if (expected >= 0 && first != expected) {
            throw new WalCorruptionException(
                    reader.path(),
                    0,
                    "records missing between segments: first-lsn=" + first + " expected-first-lsn=" + expected);
        }
        return first;
    }

    /** Checks every record of the segment; returns the LSN after its last good one, having cut a torn tail. */
    private static long scan(SegmentReader reader, long firstLsn, boolean last) throws IOException {
        long expected = firstLsn;
        while (true) {
            switch (reader.next(expected, false)) {
                case SegmentReader.Good _ -> expected++;
                case SegmentReader.End _ -> {
                    return expected;
                }
                case SegmentReader.Bad bad -> {
                    if (!last) {
                        throw new WalCorruptionException(
                                reader.path(), bad.offset(), bad.reason() + " (in a segment the log had finished)");
                    }
                    int dropped = unacknowledgedAfter(reader, bad, expected);
                    cut(reader, bad, dropped);
                    return expected;
                }
            }
        }
    }

    /**
     * How many intact records follow the bad one in a last segment, all unacknowledged; throws when one of them was
     * written after the bad record was durable (so the bad one was acknowledged and is now damaged).
     */
    private static int unacknowledgedAfter(SegmentReader reader, SegmentReader.Bad bad, long expected)
            throws IOException {
        long maxLsn = expected + (reader.size() - bad.offset()) / WalFormat.RECORD_HEADER_BYTES;
        int intact = 0;
        for (long at = bad.offset() + 1; at + WalFormat.RECORD_HEADER_BYTES <= reader.size(); at++) {
            if (reader.recordProblem(at, expected, maxLsn) != null) {
                continue;
            }
            long synced = reader.syncedLsnAt(at);
            if (synced >= expected) {
                throw new WalCorruptionException(
                        reader.path(),
                        bad.offset(),
                        bad.reason() + " at lsn=" + expected + ", and a record written after it was durable follows:"
                                + " lsn=" + reader.lsnAt(at) + " synced-lsn=" + synced + " offset=" + at);
            }
            intact++;
        }
        return intact;
    }

    private static void cut(SegmentReader reader, SegmentReader.Bad bad, int intactDropped) throws IOException {
        try (FileChannel channel = FileChannel.open(reader.path(), StandardOpenOption.WRITE)) {
            channel.truncate(bad.offset());
            channel.force(true);
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "WAL torn tail cut: file={0} offset={1} cut-bytes={2} reason={3}{4} (writes a crash interrupted"
                        + " before they were acknowledged)",
                reader.path(),
                bad.offset(),
                reader.size() - bad.offset(),
                bad.reason(),
                intactDropped == 0 ? "" : " intact-unacknowledged-records-dropped=" + intactDropped);
    }

    private static void dropInterruptedSegment(Path directory, Path path, String problem) throws IOException {
        Files.delete(path);
        DirectorySync.force(directory);
        LOG.log(
                System.Logger.Level.WARNING,
                "WAL segment deleted: file={0} reason={1} (its creation was interrupted; it held no record)",
                path,
                problem);
    }
}
