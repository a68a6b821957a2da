package io.numacube.engine.ingest.csv;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The bytes of a CSV source, read from the file once even when the schema is inferred first: {@link #head()} is read
 * for inference, then {@link #all()} from the first byte for the load.
 *
 * <ul>
 *   <li>A regular, uncompressed file is read through its {@link FileChannel} twice (the fast path; its size is known
 *       for progress).</li>
 *   <li>A pipe, a FIFO, {@code /dev/stdin} or {@code <(...)} can be read only once: the bytes {@link #head()} hands
 *       out are kept in memory (inference reads a few thousand rows) and {@link #all()} replays them before it
 *       reads on.</li>
 *   <li>gzip and zstd are recognised by their magic bytes (not the file name) and decompressed as they are read, as
 *       DuckDB does (zstd through zstd-jni, whose native library needs {@code --enable-native-access}); a Parquet file
 *       that reaches this reader (a pipe: Parquet is read from its footer, so only a regular file can be read) is
 *       recognised and refused with a clear message.</li>
 * </ul>
 * Not thread-safe; one per read. {@link #close()} closes the file.
 */
public final class CsvInput implements AutoCloseable {

    private static final byte[] GZIP = {0x1f, (byte) 0x8b};
    private static final byte[] ZSTD = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd};
    private static final byte[] PARQUET = {'P', 'A', 'R', '1'};

    private final FileChannel file;
    private final ReadableByteChannel stream;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private boolean replaying;

    private CsvInput(FileChannel file, ReadableByteChannel stream) {
        this.file = file;
        this.stream = stream;
    }

    /**
     * Opens {@code path} and looks at its first bytes.
     *
     * @throws NumacubeException INVALID_INPUT for a directory, a missing or unreadable file, a zstd or Parquet file
     */
    public static CsvInput open(Path path) {
        if (Files.isDirectory(path)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a CSV source must be a file, not a directory: file=" + path + " — name the .csv file in it");
        }
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "CSV file not found: file=" + path + " — check the path");
        } catch (AccessDeniedException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "CSV file not readable: file=" + path + " — check its permissions");
        } catch (java.nio.file.FileSystemException e) {
            // ELOOP, ENOTDIR, ENAMETOOLONG...: the path is wrong, which the user can fix
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "CSV file cannot be opened: file=" + path + " error=" + IoReason.of(e) + " — check the path");
        } catch (IOException e) {
            throw failure(path.toString(), e);
        }
        try {
            return open(path, ch, Files.isRegularFile(path));
        } catch (IOException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw failure(path.toString(), io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * CSV text already in memory (a batch of rows sent to the server), UTF-8, not compressed.
     *
     * @throws NumacubeException INVALID_INPUT naming {@code source} when its header row is not text
     */
    public static CsvInput ofBytes(byte[] bytes, String source) {
        byte[] head = java.util.Arrays.copyOf(bytes, Math.min(bytes.length, SNIFF_BYTES));
        refuseBinary(source, head);
        return new CsvInput(null, filling(new java.io.ByteArrayInputStream(bytes)));
    }

    private static CsvInput open(Path path, FileChannel ch, boolean regular) throws IOException {
        PushbackInputStream in = new PushbackInputStream(Channels.newInputStream(ch), SNIFF_BYTES);
        byte[] magic = in.readNBytes(SNIFF_BYTES);
        in.unread(magic);
        if (startsWith(magic, PARQUET)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    path + " is a Parquet file, which is read from its footer: save it to a regular file first");
        }
        if (startsWith(magic, ZSTD)) {
            return new CsvInput(ch, filling(notParquet(path, "zstd", zstd(path, in))));
        }
        if (startsWith(magic, GZIP)) {
            return new CsvInput(ch, filling(notParquet(path, "gzip", GzipCsv.of(in))));
        }
        refuseBinary(path.toString(), magic);
        if (regular) {
            ch.position(0);
            return new CsvInput(ch, null);
        }
        return new CsvInput(ch, filling(in));
    }

    /** The decompressed stream, unless it is a Parquet file, which is refused by name. */
    private static InputStream notParquet(Path path, String codec, InputStream decompressed) throws IOException {
        PushbackInputStream in = new PushbackInputStream(decompressed, PARQUET.length);
        byte[] head = in.readNBytes(PARQUET.length);
        in.unread(head);
        if (startsWith(head, PARQUET)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    path + " is a " + codec + "-compressed Parquet file: decompress it (Parquet compresses its own"
                            + " pages), then load the .parquet file");
        }
        return in;
    }

    /**
     * A channel whose reads fill the buffer (or reach the end): {@link Channels#newChannel(InputStream)} hands out at
     * most 8 KiB a read, and the scanner, which rescans a record it has not finished after each read, would take
     * quadratic time over a long record (a binary file without line breaks, piped in).
     */
    private static ReadableByteChannel filling(InputStream in) {
        return new ReadableByteChannel() {
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                int want = dst.remaining();
                if (want == 0) {
                    return 0;
                }
                int n;
                if (dst.hasArray()) {
                    n = in.readNBytes(dst.array(), dst.arrayOffset() + dst.position(), want);
                    dst.position(dst.position() + n);
                } else {
                    byte[] b = in.readNBytes(Math.min(want, 1 << 20));
                    n = b.length;
                    dst.put(b);
                }
                return n == 0 ? -1 : n;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
            }
        };
    }

    /** How many first bytes are looked at for magic numbers and NUL bytes. */
    private static final int SNIFF_BYTES = 4096;

    /**
     * Refuses a file whose first line (the header row, as far as the first {@value #SNIFF_BYTES} bytes go) holds a NUL
     * byte or bytes that are not UTF-8: a binary file, caught before the scanner reports its bytes as CSV syntax.
     * Data rows are not looked at here: the reader checks their text (a NUL inside a text field is refused there, 22021).
     */
    private static void refuseBinary(String path, byte[] head) {
        int end = 0;
        while (end < head.length && head[end] != '\n') {
            if (head[end] == 0) {
                throw notText(path, end, "a NUL byte");
            }
            end++;
        }
        java.nio.charset.CharsetDecoder utf8 = java.nio.charset.StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(head, 0, end);
        java.nio.charset.CoderResult r = utf8.decode(in, java.nio.CharBuffer.allocate(end), true);
        // a multi-byte character cut by the end of the sniffed bytes is not an error
        if (r.isError() && (end < head.length || in.position() < end - 3)) {
            throw notText(
                    path,
                    in.position(),
                    "a byte that is not UTF-8 (0x" + Integer.toHexString(head[in.position()] & 0xff) + ")");
        }
    }

    private static NumacubeException notText(String path, int offset, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                path + ":1:" + (offset + 1) + ": " + what
                        + " in the header row at byte offset " + offset
                        + ": this is a binary file, not CSV text (gzip- and "
                        + "zstd-compressed CSV are read; other formats are not)");
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The input's size in bytes for progress, or -1 when unknown (a pipe, a compressed file). */
    public long size() throws IOException {
        return stream == null ? file.size() : -1;
    }

    /** The bytes from the first, for schema inference; read it before {@link #all()}, not after. */
    public ReadableByteChannel head() {
        if (stream == null) {
            return file;
        }
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                int start = dst.position();
                int n = stream.read(dst);
                if (n > 0) {
                    byte[] b = new byte[n];
                    dst.get(start, b);
                    head.write(b, 0, n);
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

    /**
     * The file, when the input is a regular, uncompressed file, which may then be read at any position, by several
     * threads at once (positional reads); null for a pipe, a compressed file or bytes in memory.
     */
    FileChannel regularFile() {
        return stream == null ? file : null;
    }

    /** All the bytes from the first, once: what {@link #head()} read, then the rest. */
    public ReadableByteChannel all() throws IOException {
        if (replaying) {
            throw new IllegalStateException("CsvInput.all() is read once");
        }
        replaying = true;
        if (stream == null) {
            return file.position(0);
        }
        ByteBuffer replay = ByteBuffer.wrap(head.toByteArray());
        head.reset();
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (replay.hasRemaining()) {
                    int n = Math.min(replay.remaining(), dst.remaining());
                    dst.put(replay.slice(replay.position(), n));
                    replay.position(replay.position() + n);
                    return n;
                }
                return stream.read(dst);
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close();
        }
    }

    static NumacubeException failure(String source, IOException e) {
        if (e instanceof com.github.luben.zstd.ZstdIOException) {
            return new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "corrupt zstd data: file=" + source + " error=" + IoReason.of(e) + " — check the file");
        }
        if (e instanceof java.util.zip.ZipException) {
            return new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "corrupt gzip data: file=" + source + " error=" + IoReason.of(e) + " — check the file");
        }
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "cannot read CSV file: file=" + source + " error=" + IoReason.of(e),
                e);
    }

    /** A zstd decompressing stream; zstd-jni's native library is loaded on first use. */
    private static InputStream zstd(Path path, InputStream in) throws IOException {
        try {
            return new java.io.BufferedInputStream(new com.github.luben.zstd.ZstdInputStream(in), 1 << 16);
        } catch (UnsatisfiedLinkError | ExceptionInInitializerError | NoClassDefFoundError e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    path + " is zstd-compressed and zstd's "
                            + "native library cannot be loaded here: error=" + e
                            + " — decompress it (zstd -d) or recompress "
                            + "it with gzip");
        }
    }

    /**
     * gzip members one after another, as gzip writes them; a large buffer, since CSV is read in big chunks. A file
     * that ends inside a member (a truncated download) is corrupt gzip data: {@link GZIPInputStream} reports it as a
     * bare {@link EOFException}, which would otherwise read as a platform I/O failure.
     */
    private static final class GzipCsv extends GZIPInputStream {
        private GzipCsv(InputStream in) throws IOException {
            super(in, 1 << 16);
        }

        static GzipCsv of(InputStream in) throws IOException {
            try {
                return new GzipCsv(in);
            } catch (EOFException e) {
                throw truncated(e);
            }
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            try {
                return super.read(buf, off, len);
            } catch (EOFException e) {
                throw truncated(e);
            }
        }

        private static ZipException truncated(EOFException e) {
            ZipException z = new ZipException("truncated gzip stream (" + IoReason.of(e) + ")");
            z.initCause(e);
            return z;
        }
    }
}
