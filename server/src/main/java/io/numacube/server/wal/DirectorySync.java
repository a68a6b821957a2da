package io.numacube.server.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a directory's entries durable: after a file is created, renamed or deleted, the file's own fsync does not
 * make its name survive power loss; an fsync of the directory does (POSIX; Linux honours {@code fsync} on a
 * directory opened read-only). Stateless.
 */
final class DirectorySync {

    private DirectorySync() {}

    static void force(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
