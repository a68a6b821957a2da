package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV sources that are not plain regular files: pipes, compressed files, binary files named .csv. */
class CsvInputTest {

    /** More rows than inference samples, so that the load reads past the head that inference buffered. */
    private static final int ROWS = 25_000;

    private static byte[] csv() {
        StringBuilder sb = new StringBuilder("id,desk,pnl\n");
        for (int i = 0; i < ROWS; i++) {
            sb.append(i).append(",d").append(i % 7).append(',').append(i * 0.5).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static TableStaging stage(Path file) {
        return new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(file, "t", null, CsvProgress.NONE)
                .staging();
    }

    private static void assertEveryRow(TableStaging s) {
        assertEquals("id:long,desk:string,pnl:double", s.schema().declaration());
        assertEquals(ROWS, s.rows());
        long[] ids = s.longs(0);
        double[] pnl = s.doubles(2);
        for (int i = 0; i < ROWS; i++) {
            assertEquals(i, ids[i]);
            assertEquals(i * 0.5, pnl[i]);
        }
    }

    @Test
    void readsANamedPipeOnceInferringTheSchemaFromItsHead(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("trades.csv");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread writer = Thread.ofPlatform().start(() -> {
            try (OutputStream out = Files.newOutputStream(fifo)) {
                out.write(csv());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        // before: inference read the pipe, then the load opened it again and waited forever for a second writer
        TableStaging s = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> stage(fifo));
        writer.join();
        assertEveryRow(s);
    }

    @Test
    void readsGzipByItsMagicBytesWhateverTheName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trades.csv");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(csv());
        }
        Files.write(file, gz.toByteArray());
        assertEveryRow(stage(file));
    }

    @Test
    void readsZstdByItsMagicBytes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trades.csv");
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        try (OutputStream out = new com.github.luben.zstd.ZstdOutputStream(z)) {
            out.write(csv());
        }
        Files.write(file, z.toByteArray());
        assertEveryRow(stage(file));
    }

    @Test
    void refusesParquetByItsMagicBytes(@TempDir Path dir) throws Exception {
        Path parquet = Files.write(dir.resolve("b.csv"), "PAR1\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(
                parquet + " is a Parquet file, which is read from its footer: save it to a regular file first",
                assertThrows(NumacubeException.class, () -> stage(parquet)).getMessage());
    }

    @Test
    void refusesGzipCompressedParquetByItsDecompressedBytes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p.parquet.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            out.write("PAR1\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
        }
        assertEquals(
                file + " is a gzip-compressed Parquet file: decompress it (Parquet compresses its own pages), then load"
                        + " the .parquet file",
                assertThrows(NumacubeException.class, () -> stage(file)).getMessage());
    }

    @Test
    void corruptZstdIsAnInputError(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("bad.csv"), new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 9, 9, 9});
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind(), e.getMessage());
        assertTrue(e.getMessage().startsWith("corrupt zstd data: file=" + file), e.getMessage());
    }

    @Test
    void aHeaderThatIsNotTextIsAnErrorNamingFileLineAndColumn(@TempDir Path dir) throws Exception {
        Path nul = Files.write(dir.resolve("nul.csv"), "id,pn\0l\n1,2\n".getBytes(StandardCharsets.ISO_8859_1));
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(nul));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertEquals(
                nul + ":1:6: a NUL byte in the header row at byte offset 5: this is a binary file, not CSV text "
                        + "(gzip- and zstd-compressed CSV are read; other formats are not)",
                e.getMessage());
        // beyond the first 4 KiB, the header check still catches it
        Path late = Files.write(
                dir.resolve("late.csv"),
                ("id," + "x".repeat(5000) + "\0\n1,2\n").getBytes(StandardCharsets.ISO_8859_1));
        e = assertThrows(NumacubeException.class, () -> stage(late));
        assertTrue(
                e.getMessage().startsWith(late + ":1:4: a NUL byte in the header row (is this a CSV file?)"),
                e.getMessage());
        Path latin1 =
                Files.write(dir.resolve("latin1.csv"), "id,caf\u00e9\n1,2\n".getBytes(StandardCharsets.ISO_8859_1));
        e = assertThrows(NumacubeException.class, () -> stage(latin1));
        assertEquals(
                latin1 + ":1:7: a byte that is not UTF-8 (0xe9) in the header row at byte offset 6: this is a "
                        + "binary file, not CSV text (gzip- and zstd-compressed CSV are read; other formats are not)",
                e.getMessage());
        // random bytes that happen to hold a quote: named as binary, not as a CSV quoting error
        Path junk = Files.write(dir.resolve("junk.csv"), new byte[] {(byte) 0x8f, '"', 'x', (byte) 0xfe, '\n'});
        assertTrue(assertThrows(NumacubeException.class, () -> stage(junk))
                .getMessage()
                .startsWith(junk + ":1:1: a byte that is not UTF-8 (0x8f)"));
    }

    /**
     * DuckDB reads a NUL byte inside a field as part of the string; PostgreSQL's COPY refuses it (22021), as the server
     * does by every way in, and a psql client would show the value cut at it: the load refuses it, naming file, line,
     * column and field (it was loaded as {@code a\0b}).
     */
    @Test
    void aNulByteInADataFieldIsRefused(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("nul.csv"), "k,v\na\0b,1\n".getBytes(StandardCharsets.ISO_8859_1));
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals("22021", e.code(), e.getMessage());
        assertTrue(
                e.getMessage().startsWith(file + ":2:1: invalid byte sequence for encoding \"UTF8\": 0x00"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("(field k, value \"a\\u0000b\")"), e.getMessage());
    }

    @Test
    void corruptGzipIsAnInputError(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("bad.csv"), new byte[] {0x1f, (byte) 0x8b, 1, 2, 3});
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind(), e.getMessage());
        assertArrayEquals(
                new String[] {"corrupt gzip data"}, new String[] {e.getMessage().split(":")[0]});
    }

    /** A gzip file cut short (a truncated download) is corrupt input (exit 2), not a platform I/O failure. */
    @Test
    void truncatedGzipIsAnInputError(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
            out.write(csv());
        }
        byte[] all = gz.toByteArray();
        for (int cut : new int[] {5, all.length / 2, all.length - 4}) {
            Path file = Files.write(dir.resolve("cut" + cut + ".csv.gz"), java.util.Arrays.copyOf(all, cut));
            NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
            assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind(), e.getMessage());
            assertTrue(e.getMessage().startsWith("corrupt gzip data"), e.getMessage());
        }
    }

    /** A symbolic link loop is a path the user can fix (exit 2), named as such. */
    @Test
    void aSymlinkLoopIsAnInputError(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.csv");
        Path b = dir.resolve("b.csv");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(a));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind(), e.getMessage());
        assertTrue(e.getMessage().startsWith("CSV file cannot be opened"), e.getMessage());
    }
}
