package io.numacube.cli.cube;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The rows and columns of a CSV file estimated from its size and its first {@value #SAMPLE_BYTES} bytes, for a
 * memory check before the load: the header's fields are the columns (quotes are not parsed: a header with quoted
 * delimiters over-counts), the mean length of the sampled lines gives the rows. Only a regular, uncompressed file can
 * be estimated; a pipe, a compressed or an unreadable file gives none (its load is not checked). Immutable.
 *
 * @param rows    estimated data rows
 * @param columns fields of the header row
 */
public record CsvSizeEstimate(long rows, int columns) {

    /** How much of the file is sampled. */
    static final int SAMPLE_BYTES = 1 << 20;

    /** The estimate for {@code file}, or empty when it cannot be had. */
    public static Optional<CsvSizeEstimate> of(Path file, char delimiter) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            long size = Files.size(file);
            byte[] head;
            try (InputStream in = Files.newInputStream(file)) {
                head = in.readNBytes(SAMPLE_BYTES);
            }
            if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b
                    || head.length >= 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5) {
                return Optional.empty();
            }
            int headerEnd = indexOf(head, (byte) '\n', 0);
            if (headerEnd < 0) {
                return Optional.empty();
            }
            int columns = 1;
            for (int i = 0; i < headerEnd; i++) {
                if (head[i] == delimiter) {
                    columns++;
                }
            }
            long lines = 0;
            for (int p = headerEnd + 1; p < head.length; p++) {
                if (head[p] == '\n') {
                    lines++;
                }
            }
            long body = head.length - headerEnd - 1;
            if (lines == 0 || body == 0) {
                return Optional.empty();
            }
            long rows = head.length == size ? lines : (long) ((double) (size - headerEnd - 1) * lines / body);
            return Optional.of(new CsvSizeEstimate(rows, columns));
        } catch (IOException | RuntimeException e) {
            // no estimate: the load itself reports what is wrong with the file
            return Optional.empty();
        }
    }

    private static int indexOf(byte[] b, byte v, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
