package io.numacube.server.durable;

import io.numacube.engine.schema.Timestamps;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.WriteService.Batch;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * One write (the batches of one commit, {@link io.numacube.server.write.WriteService#commit}) as the payload of one
 * WAL record of type {@link #TYPE}, and back. Layout, big-endian:
 *
 * <pre>
 *   offset  size  field
 *   0       1     format version, {@value #VERSION} (or {@value #VERSION_WITHOUT_CLOCK}, read only)
 *   1       4     batch count n, at least 1
 *   then n batches, each:
 *           4     table name length t;  then t bytes, UTF-8
 *           1     body format: 'C' CSV with a header row, 'J' JSON lines, 'D' a DELETE, 'U' an UPDATE
 *                 statement ({@link BatchFormat#code})
 *           4     source length s;      then s bytes, UTF-8 (what errors call the batch: POST /v1/tables/t/rows)
 *           4     body length b;        then b bytes: the rows (or statement) exactly as the client sent them
 *           1     clock: 0 none (rows), 1 one follows                        (version 2 only)
 *           8     the statement's clock ({@link Batch#clock}): its wall clock  (version 2, clock 1 only)
 *                 in microseconds since 1970-01-01 00:00, the TIMESTAMP its now() read
 * </pre>
 *
 * A version 1 record holds no clock: its DELETE or UPDATE reads the clock when replayed. Builds that wrote version 1
 * refused (since the durability campaign's bug 2, 2bd2279) a DELETE or UPDATE reading the clock on a durable server,
 * so such records replay as they were applied; a version 1 record of a clock-reading statement from an older build
 * still replays with the restart's clock, as it always did.
 *
 * <p>The WAL frames and checksums each payload (length, CRC32C; the clock included), so a payload that reaches {@link
 * #decode} is what {@link #encode} wrote; decode still checks every length against what remains, the format and clock
 * bytes and that nothing trails, so a record of another version (or a bug) is an error naming its LSN, never rows
 * replayed from garbage. Stateless.
 */
public final class WriteRecord {

    /** The WAL record type of a write. */
    public static final byte TYPE = 'W';

    /** The layout's version, which {@link #encode} writes: batches with their clocks. */
    public static final byte VERSION = 2;

    /** The first layout's version, still read: batches without clocks. */
    public static final byte VERSION_WITHOUT_CLOCK = 1;

    private static final byte NO_CLOCK = 0;
    private static final byte CLOCK = 1;

    private WriteRecord() {}

    /** The payload of one WAL record holding {@code batches}, one write, in order. */
    public static byte[] encode(List<Batch> batches) {
        if (batches.isEmpty()) {
            throw new IllegalArgumentException("a write has at least one batch");
        }
        List<byte[]> names = new ArrayList<>();
        List<byte[]> sources = new ArrayList<>();
        long size = 1 + 4;
        for (Batch b : batches) {
            names.add(b.table().getBytes(StandardCharsets.UTF_8));
            sources.add(b.source().getBytes(StandardCharsets.UTF_8));
            size += 4
                    + names.getLast().length
                    + 1
                    + 4
                    + sources.getLast().length
                    + 4
                    + b.body().length
                    + 1
                    + (b.clock() == null ? 0 : 8);
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54000",
                    "a write is too large to log: bytes=" + size + " batches=" + batches.size()
                            + " — send it in several writes",
                    null,
                    null);
        }
        ByteBuffer out = ByteBuffer.allocate((int) size);
        out.put(VERSION).putInt(batches.size());
        for (int i = 0; i < batches.size(); i++) {
            Batch b = batches.get(i);
            out.putInt(names.get(i).length).put(names.get(i));
            out.put(b.format().code());
            out.putInt(sources.get(i).length).put(sources.get(i));
            out.putInt(b.body().length).put(b.body());
            if (b.clock() == null) {
                out.put(NO_CLOCK);
            } else {
                out.put(CLOCK).putLong(Timestamps.ofLocalDateTime(b.clock()));
            }
        }
        return out.array();
    }

    /**
     * The write that {@code payload}, the payload of WAL record {@code lsn} of type {@code type}, holds.
     *
     * @throws NumacubeException (PLATFORM, XX001) naming the LSN when the record is not a write of this layout
     */
    public static List<Batch> decode(long lsn, byte type, byte[] payload) {
        if (type != TYPE) {
            throw unreadable(lsn, "unknown record type: type=" + type + " expected=" + TYPE);
        }
        ByteBuffer in = ByteBuffer.wrap(payload);
        try {
            byte version = in.get();
            if (version != VERSION && version != VERSION_WITHOUT_CLOCK) {
                throw unreadable(
                        lsn,
                        "unknown write format version: version=" + version + " expected=" + VERSION_WITHOUT_CLOCK
                                + " or " + VERSION);
            }
            int count = in.getInt();
            if (count < 1 || count > in.remaining()) {
                throw unreadable(lsn, "batch count out of range: batches=" + count + " bytes=" + payload.length);
            }
            List<Batch> batches = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                batches.add(batch(lsn, i, in, version == VERSION));
            }
            if (in.hasRemaining()) {
                throw unreadable(lsn, "bytes after the last batch: trailing=" + in.remaining());
            }
            return batches;
        } catch (BufferUnderflowException e) {
            throw unreadable(lsn, "the record ends inside a batch: bytes=" + payload.length);
        }
    }

    private static Batch batch(long lsn, int index, ByteBuffer in, boolean withClock) {
        String table = text(lsn, index, "table name", in);
        byte code = in.get();
        BatchFormat format;
        try {
            format = BatchFormat.ofCode(code);
        } catch (IllegalArgumentException e) {
            throw unreadable(lsn, "unknown body format: batch=" + index + " format=" + code);
        }
        String source = text(lsn, index, "source", in);
        byte[] body = bytes(lsn, index, "body", in);
        return new Batch(table, format, body, source, withClock ? clock(lsn, index, in) : null);
    }

    private static LocalDateTime clock(long lsn, int index, ByteBuffer in) {
        byte flag = in.get();
        if (flag == NO_CLOCK) {
            return null;
        }
        if (flag != CLOCK) {
            throw unreadable(lsn, "unknown clock flag: batch=" + index + " flag=" + flag);
        }
        long micros = in.getLong();
        try {
            return Timestamps.toLocalDateTime(micros);
        } catch (java.time.DateTimeException e) {
            throw unreadable(lsn, "clock out of range: batch=" + index + " micros=" + micros);
        }
    }

    private static String text(long lsn, int index, String what, ByteBuffer in) {
        byte[] bytes = bytes(lsn, index, what, in);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw unreadable(lsn, what + " is not UTF-8: batch=" + index);
        }
    }

    private static byte[] bytes(long lsn, int index, String what, ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw unreadable(
                    lsn,
                    what + " length out of range: batch=" + index + " length=" + length + " left=" + in.remaining());
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static NumacubeException unreadable(long lsn, String reason) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "XX001",
                "WAL record is not a write this numacube can read: lsn=" + lsn + " reason=" + reason
                        + " — was the data directory written by another numacube version? nothing is replayed",
                null,
                null);
    }
}
