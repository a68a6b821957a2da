package io.numacube.server.durable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of checkpoint files and what is done with them as files: a table's CSV is {@code
 * checkpoint-<generation, 8 digits>-<table index>-<table name, letters digits _ - only>.csv} in the data directory, so
 * that the files of one checkpoint share a prefix and a new checkpoint never overwrites a file the current manifest
 * names. Stateless.
 */
final class CheckpointFiles {

    private static final Pattern NAME = Pattern.compile("checkpoint-(\\d{8,})-.*");

    private CheckpointFiles() {}

    /** The file name of table number {@code index} of checkpoint {@code generation}. */
    static String tableFile(long generation, int index, String table) {
        String safe = table.replaceAll("[^A-Za-z0-9_-]", "_").toLowerCase(Locale.ROOT);
        if (safe.length() > 40) {
            safe = safe.substring(0, 40);
        }
        return String.format("checkpoint-%08d-%d-%s.csv", generation, index, safe);
    }

    /** The generation a checkpoint file (or its leftover {@code .tmp}) belongs to; empty for another file. */
    static OptionalLong generationOf(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    /**
     * Deletes every checkpoint file in {@code dir} that is not of generation {@code keep}: older checkpoints, and the
     * files of one a crash interrupted before its manifest. Returns how many it deleted.
     */
    static int deleteAllBut(Path dir, long keep) throws IOException {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "checkpoint-*")) {
            for (Path f : files) {
                OptionalLong g = generationOf(f.getFileName().toString());
                if (g.isPresent() && g.getAsLong() != keep && Files.deleteIfExists(f)) {
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** SHA-256 of {@code file}'s bytes, lowercase hex, and its size. */
    static Digest digest(Path file) throws IOException {
        MessageDigest sha = sha256();
        long size = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                sha.update(buf, 0, n);
                size += n;
            }
        }
        return new Digest(HexFormat.of().formatHex(sha.digest()), size);
    }

    /** A file's SHA-256 (lowercase hex) and size in bytes. */
    record Digest(String sha256, long bytes) {}

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Passes bytes on while hashing and counting them. Not thread-safe. */
    static final class HashingStream extends OutputStream {
        private final OutputStream out;
        private final MessageDigest sha = sha256();
        private long bytes;

        HashingStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            sha.update((byte) b);
            bytes++;
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            sha.update(b, off, len);
            bytes += len;
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        /** What went through so far; call once, after the last write. */
        Digest digest() {
            return new Digest(HexFormat.of().formatHex(sha.digest()), bytes);
        }
    }
}
