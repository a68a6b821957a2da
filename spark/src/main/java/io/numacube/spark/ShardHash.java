package io.numacube.spark;

import java.nio.charset.StandardCharsets;

/**
 * The shard of a row, as {@code numacube serve --shard I/N} computes it (the engine's {@code Shard}): the FNV-1a
 * 32-bit hash of the key's text in UTF-8, unsigned, modulo the shard count; NULL keys belong to shard 0. The text of
 * a string is itself, of an integer its decimal digits. Stateless.
 */
final class ShardHash {

    private ShardHash() {}

    static int of(String keyText, int count) {
        if (keyText == null) {
            return 0;
        }
        int h = 0x811c9dc5;
        for (byte b : keyText.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x01000193;
        }
        return (int) Long.remainderUnsigned(Integer.toUnsignedLong(h), count);
    }
}
