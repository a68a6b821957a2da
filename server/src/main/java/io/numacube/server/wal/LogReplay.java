package io.numacube.server.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Consumer;

/**
 * One replay: reads the segments that hold the records after {@code fromLsnExclusive}, up to {@code untilLsn}, and
 * hands those records over in LSN order. Every record is checked again as it is read (length, checksum, LSN
 * continuity); since recovery already cut any torn tail and the records up to {@code untilLsn} are durable, a bad one
 * is corruption, never a crash's doing. It never reads past {@code untilLsn}, so appends running meanwhile are
 * invisible to it.
 *
 * <p>Not thread-safe; used once. The caller keeps the segments from being deleted while it runs.
 */
final class LogReplay {

    private final NavigableMap<Long, Path> segments;
    private final long fromLsnExclusive;
    private final long untilLsn;
    private long handed;

    LogReplay(NavigableMap<Long, Path> segments, long fromLsnExclusive, long untilLsn) {
        this.segments = segments;
        this.fromLsnExclusive = fromLsnExclusive;
        this.untilLsn = untilLsn;
    }

    /** Returns how many records it handed to {@code consumer}. */
    long run(Consumer<WalRecord> consumer) throws IOException {
        if (fromLsnExclusive >= untilLsn) {
            return 0;
        }
        long expected = segments.floorKey(fromLsnExclusive + 1);
        Path lastRead = null;
        long lastReadBytes = 0;
        for (Map.Entry<Long, Path> e : segments.tailMap(expected, true).entrySet()) {
            if (expected > untilLsn) {
                break;
            }
            try (SegmentReader reader = SegmentReader.open(e.getValue())) {
                checkHeader(reader, e.getKey(), expected);
                expected = readSegment(reader, expected, consumer);
                lastRead = reader.path();
                lastReadBytes = reader.size();
            }
        }
        if (expected <= untilLsn) {
            throw new WalCorruptionException(
                    lastRead,
                    lastReadBytes,
                    "the log ends before its durable end: next-lsn=" + expected + " durable-lsn=" + untilLsn);
        }
        return handed;
    }

    private static void checkHeader(SegmentReader reader, long nameLsn, long expected) throws IOException {
        String problem = reader.headerProblem();
        if (problem != null) {
            throw new WalCorruptionException(reader.path(), 0, problem);
        }
        long first = reader.headerFirstLsn();
        if (first != nameLsn || first != expected) {
            throw new WalCorruptionException(
                    reader.path(),
                    WalFormat.SEGMENT_FIRST_LSN_OFFSET,
                    "segment does not continue the log: header-first-lsn=" + first + " name-first-lsn=" + nameLsn
                            + " expected-first-lsn=" + expected);
        }
    }

    /** Reads the segment's records up to {@code untilLsn}; returns the LSN after the last one read. */
    private long readSegment(SegmentReader reader, long firstLsn, Consumer<WalRecord> consumer) throws IOException {
        long expected = firstLsn;
        while (expected <= untilLsn) {
            boolean wanted = expected > fromLsnExclusive;
            switch (reader.next(expected, wanted)) {
                case SegmentReader.Good g -> {
                    if (wanted) {
                        consumer.accept(g.record());
                        handed++;
                    }
                    expected++;
                }
                case SegmentReader.End _ -> {
                    return expected;
                }
                case SegmentReader.Bad bad ->
                    throw new WalCorruptionException(
                            reader.path(),
                            bad.offset(),
                            bad.reason() + " (a durable record, checked when the log opened)");
            }
        }
        return expected;
    }
}
