package io.numacube.server.durable;

import io.numacube.engine.Shard;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The {@code SHARD} file of a data directory: which shard of a table split across servers its data is ({@code serve
 * --shard I/N --shard-key COL}), so that a restart recovers that shard and nothing else. Two lines, {@code shard=I/N}
 * and {@code shard_key=COL}; no file for a directory whose server holds every row. Written once, before the first
 * checkpoint, so that no checkpoint exists without it. Stateless.
 */
final class ShardFile {

    static final String FILE_NAME = "SHARD";

    private ShardFile() {}

    static byte[] write(Shard shard) {
        return ("shard=" + shard + "\nshard_key=" + shard.column() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The shard {@code bytes} (the file at {@code file}) records; XX001 naming the file when it does not read. */
    static Shard read(Path file, byte[] bytes) {
        String spec = null;
        String key = null;
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("shard=")) {
                spec = line.substring("shard=".length()).strip();
            } else if (line.startsWith("shard_key=")) {
                key = line.substring("shard_key=".length()).strip();
            }
        }
        if (spec == null || key == null) {
            return fail(file, "shard= or shard_key= is missing");
        }
        try {
            return Shard.parse(spec, key);
        } catch (NumacubeException e) {
            return fail(file, e.getMessage());
        }
    }

    private static Shard fail(Path file, String reason) {
        throw new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "XX001",
                "the data directory's shard file is damaged: file=" + file + " reason=" + reason
                        + " — restore the data directory from a backup",
                null,
                null);
    }
}
