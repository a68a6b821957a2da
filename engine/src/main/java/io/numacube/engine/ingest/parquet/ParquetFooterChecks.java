package io.numacube.engine.ingest.parquet;

import dev.hardwood.metadata.ColumnChunk;
import dev.hardwood.metadata.CompressionCodec;
import dev.hardwood.metadata.FileMetaData;
import dev.hardwood.metadata.RowGroup;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a Parquet file's footer must allow before any row is read, so that a file numacube cannot load fails at once,
 * by name, rather than after earlier files of its table were read: at least one column, column names not blank and unique without
 * regard to case (as SQL names them), and every column chunk in a codec numacube carries. Stateless.
 */
final class ParquetFooterChecks {

    /** The codecs whose libraries the engine carries: snappy-java, lz4-java, zstd-jni, and the JDK's gzip. */
    static final Set<CompressionCodec> READABLE = EnumSet.of(
            CompressionCodec.UNCOMPRESSED,
            CompressionCodec.SNAPPY,
            CompressionCodec.GZIP,
            CompressionCodec.ZSTD,
            CompressionCodec.LZ4,
            CompressionCodec.LZ4_RAW);

    private ParquetFooterChecks() {}

    static void check(Path file, FileMetaData footer, List<ParquetColumn> columns) {
        if (columns.isEmpty()) {
            throw refused(file + ": the file has no columns");
        }
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            ParquetColumn c = columns.get(i);
            if (c.name().isBlank()) {
                throw refused(file + ": column " + (i + 1) + " has a blank name, which SQL cannot name — name it where"
                        + " the file is written");
            }
            String other = seen.putIfAbsent(c.name().toLowerCase(Locale.ROOT), c.name());
            if (other != null) {
                throw refused(file + ": columns " + other + " and " + c.name() + " have the same name to SQL (names"
                        + " are not case-sensitive) — rename one where the file is written");
            }
        }
        List<RowGroup> groups = footer.rowGroups();
        for (int g = 0; g < groups.size(); g++) {
            for (ColumnChunk chunk : groups.get(g).columns()) {
                CompressionCodec codec = chunk.metaData().codec();
                if (!READABLE.contains(codec)) {
                    throw refused(file + ": column "
                            + String.join(".", chunk.metaData().pathInSchema().elements())
                            + " is compressed with " + codec + " (row group " + g + "), which numacube cannot"
                            + " decompress — rewrite the file with snappy, zstd, gzip, lz4 or no compression");
                }
            }
        }
    }

    private static NumacubeException refused(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "0A000", message, null, null);
    }
}
