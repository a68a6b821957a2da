package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;

/**
 * Reads the data rows of a regular CSV file, or of CSV text in memory, in chunks on a {@link WorkerPool} and appends
 * them to one staging in file order, so that the staged rows, their order, the dictionaries' first-seen order and the
 * first error are those of a read on one thread.
 *
 * <p>How chunks are cut: the data bytes (after the header) are cut every {@link Plan#chunkBytes()} bytes; chunk
 * {@code k} holds the records that <em>start</em> in its byte range, the last one read to its end past the range. A
 * worker does not know where the records before its range end, so it guesses: its chunk starts after the first line
 * feed at or after its range's start (chunk 0 starts right after the header). The guess is wrong only when that line
 * feed is inside a quoted field. The staging thread checks every guess against where the previous chunk's last record
 * really ended, and reads a chunk whose guess was wrong again on its own thread from the right byte: a file with
 * quoted line breaks near chunk edges is read right, just less in parallel. A chunk with a bad record is read again
 * on the staging thread too, with its true first line number, so that the error names the same line and column as a
 * read on one thread; chunks after it are not appended.
 *
 * <p>A chunk is read by whichever thread claims it first: a worker, or the staging thread when it needs the chunk
 * next and no worker has started it (it then reads it from the right byte, with its true line numbers). So a read
 * never waits for workers busy with other work (a query's morsels): at worst the staging thread reads every chunk.
 *
 * <p>At most two chunks per worker are read ahead of the staging thread. Not thread-safe: one read, driven by one
 * thread that is not one of the pool's workers.
 */
final class CsvChunks {

    /** Bytes looked at a time for the first line feed of a chunk, and read at a time past a chunk's end. */
    private static final int PROBE_BYTES = 1 << 16;

    /** Bytes read by position, by several threads at once: a file's, or text in memory. */
    @FunctionalInterface
    interface Positional {
        /** As {@link FileChannel#read(ByteBuffer, long)}: the bytes read into {@code dst}, or -1 at the end. */
        int read(ByteBuffer dst, long position) throws IOException;

        /** Positional reads of {@code bytes}. */
        static Positional of(byte[] bytes) {
            return (dst, position) -> {
                if (position >= bytes.length) {
                    return -1;
                }
                int n = (int) Math.min(dst.remaining(), bytes.length - position);
                dst.put(bytes, (int) position, n);
                return n;
            };
        }
    }

    /**
     * Where a file's data rows are and how they are cut.
     *
     * @param file          the file (or text), read with positional reads only
     * @param size          its size in bytes
     * @param dataStart     the first byte after the header row
     * @param firstDataLine the line number at {@code dataStart}
     * @param chunkBytes    the bytes of a chunk's range, at least 1
     */
    record Plan(Positional file, long size, long dataStart, long firstDataLine, long chunkBytes) {
        int chunks() {
            long data = Math.max(0, size - dataStart);
            return (int) Math.min(Integer.MAX_VALUE, (data + chunkBytes - 1) / chunkBytes);
        }

        long rangeStart(int chunk) {
            return dataStart + chunk * chunkBytes;
        }

        long rangeEnd(int chunk) {
            return chunk == chunks() - 1 ? size : rangeStart(chunk + 1);
        }
    }

    /**
     * One chunk as read.
     *
     * @param staging its rows, or null when it failed
     * @param start   the byte its first record starts at (as taken)
     * @param end     the byte after its last record
     * @param lines   the line feeds its records hold (quoted ones included)
     * @param fault   why it failed (a {@link CsvFault}, the staging's refusal, an I/O failure), or null
     */
    record Chunk(TableStaging staging, long start, long end, long lines, RuntimeException fault) {}

    /** Reads the records that start in {@code [start, end)}, lines numbered from {@code firstLine}; never throws. */
    @FunctionalInterface
    interface ChunkReader {
        Chunk read(long start, long end, long firstLine, BooleanSupplier stop);
    }

    private final Plan plan;
    private final WorkerPool workers;
    private final ChunkReader reader;
    private volatile boolean stopped;
    /** Per chunk, whether a thread has taken it to read. */
    private java.util.concurrent.atomic.AtomicBoolean[] claimed;

    CsvChunks(Plan plan, WorkerPool workers, ChunkReader reader) {
        this.plan = plan;
        this.workers = workers;
        this.reader = reader;
    }

    /**
     * Reads every chunk and appends its rows to {@code staging}, in file order.
     *
     * @return the rows appended
     * @throws CsvFault the first bad record in file order, numbered as a read on one thread numbers it
     * @throws IOException when the file cannot be read
     */
    long stageInto(TableStaging staging, CsvProgress progress) throws IOException {
        int chunks = plan.chunks();
        claimed = new java.util.concurrent.atomic.AtomicBoolean[chunks];
        for (int k = 0; k < chunks; k++) {
            claimed[k] = new java.util.concurrent.atomic.AtomicBoolean();
        }
        int window = Math.max(2, 2 * workers.workerCount());
        @SuppressWarnings("unchecked")
        CompletableFuture<Chunk>[] running = new CompletableFuture[chunks];
        List<Integer> nodes = workers.nodes();
        for (int k = 0; k < Math.min(window, chunks); k++) {
            running[k] = submit(k, nodes);
        }
        long expected = plan.dataStart();
        long line = plan.firstDataLine();
        long rows = 0;
        try {
            for (int k = 0; k < chunks; k++) {
                boolean mine = claimed[k].compareAndSet(false, true);
                Chunk c = mine ? reader.read(expected, plan.rangeEnd(k), line, () -> false) : join(running[k]);
                running[k] = null;
                if (k + window < chunks) {
                    running[k + window] = submit(k + window, nodes);
                }
                if (!mine && (c.start() != expected || c.fault() != null)) {
                    c = reader.read(expected, plan.rangeEnd(k), line, () -> false);
                }
                if (c.fault() != null) {
                    throw unwrapped(c.fault());
                }
                staging.append(c.staging());
                rows += c.staging().rows();
                expected = c.end();
                line += c.lines();
                progress.update(rows, expected, plan.size());
            }
            return rows;
        } finally {
            stopped = true;
            for (int k = 0; k < chunks; k++) {
                // a chunk no worker has started is claimed here, so that its worker skips it: not waited for
                if (running[k] != null && !claimed[k].compareAndSet(false, true)) {
                    running[k].exceptionally(ignored -> null).join();
                }
            }
        }
    }

    private CompletableFuture<Chunk> submit(int k, List<Integer> nodes) {
        return workers.submit(nodes.get(k % nodes.size()), () -> {
            if (stopped || !claimed[k].compareAndSet(false, true)) {
                return new Chunk(null, -1, -1, 0, null);
            }
            long start;
            try {
                start = k == 0 ? plan.dataStart() : firstRecordAfter(plan.rangeStart(k));
            } catch (IOException e) {
                return new Chunk(null, -1, -1, 0, new UncheckedIOException(e));
            }
            // line numbers are unknown here: a chunk with a fault is read again on the staging thread
            return reader.read(start, plan.rangeEnd(k), 1, () -> stopped);
        });
    }

    /** The byte after the first line feed at or after {@code at - 1}: a record starts there unless it is quoted. */
    private long firstRecordAfter(long at) throws IOException {
        ByteBuffer probe = ByteBuffer.allocate(PROBE_BYTES);
        long pos = at - 1;
        while (pos < plan.size()) {
            probe.clear();
            int n = plan.file().read(probe, pos);
            if (n <= 0) {
                break;
            }
            byte[] b = probe.array();
            for (int i = 0; i < n; i++) {
                if (b[i] == '\n') {
                    return pos + i + 1;
                }
            }
            pos += n;
        }
        return plan.size();
    }

    private static Chunk join(CompletableFuture<Chunk> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new NumacubeException(NumacubeException.Kind.INTERNAL, "a CSV chunk failed: " + e.getCause(), e);
        }
    }

    private static RuntimeException unwrapped(RuntimeException fault) throws IOException {
        if (fault instanceof UncheckedIOException io) {
            throw io.getCause();
        }
        return fault;
    }

    /**
     * A channel over {@code file} from byte {@code start}, by positional reads (so that several threads read one file
     * at once): reads stop at {@code end} first, then go on {@value #PROBE_BYTES} bytes at a time, since the last
     * record of a chunk ends past it.
     */
    static ReadableByteChannel channel(Positional file, long start, long end) {
        return new ReadableByteChannel() {
            private long pos = start;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                long room = pos < end ? end - pos : PROBE_BYTES;
                ByteBuffer window = dst.remaining() > room ? dst.slice().limit((int) room) : dst;
                int n = file.read(window, pos);
                if (n > 0) {
                    pos += n;
                    if (window != dst) {
                        dst.position(dst.position() + n);
                    }
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        };
    }
}
