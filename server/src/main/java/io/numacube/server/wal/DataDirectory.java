package io.numacube.server.wal;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The directory of {@code serve --data-dir}, held by one server at a time: opening it takes an exclusive lock on
 * its {@code LOCK} file ({@link FileChannel#tryLock}, an OS lock the kernel drops when the process dies, even by
 * {@code kill -9}), so a second server on the same directory fails at once instead of interleaving writes. It holds
 * the WAL in {@link #walDirectory} and the caller's checkpoint files, written with {@link #writeAtomically}: a reader
 * sees the old file or the new one, whole, never a mix, also after power loss.
 *
 * <p>Thread-safe. Owns the lock until {@link #close}; the {@code LOCK} file itself stays (deleting it would let a
 * second server lock a new file while the first still holds the old one).
 */
public final class DataDirectory implements AutoCloseable {

    /** The lock file's name; it holds the process id of the server holding it, for the error a second one sees. */
    public static final String LOCK_FILE = "LOCK";

    /** The WAL's subdirectory. */
    public static final String WAL_DIRECTORY = "wal";

    private static final String TEMP_SUFFIX = ".tmp";

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Creates {@code dir} if missing and locks it.
     *
     * @throws NumacubeException (PLATFORM, 55006) when another process (or another opener in this one) holds it;
     *                           (PLATFORM, 58030) when it cannot be created or locked
     */
    public static DataDirectory open(Path dir) {
        Path lockPath = dir.resolve(LOCK_FILE);
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "55006",
                        "data directory in use: dir=" + dir + " lock=" + lockPath + holder(lockPath)
                                + " — another numacube serve holds it; stop that server or pass another --data-dir",
                        null,
                        null);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            return new DataDirectory(dir, channel, lock);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            if (e instanceof IOException io) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        GroupCommit.IO_ERROR,
                        "cannot open the data directory: dir=" + dir + " error=" + IoReason.of(io),
                        null,
                        io);
            }
            throw (RuntimeException) e;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // the open already failed; that failure is the one to report
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // this JVM holds it already: the same answer as another process holding it
            return null;
        }
    }

    private static String holder(Path lockPath) {
        try {
            String pid = Files.readString(lockPath, StandardCharsets.US_ASCII).strip();
            return pid.matches("[0-9]+") ? " pid=" + pid : "";
        } catch (IOException e) {
            return "";
        }
    }

    public Path path() {
        return path;
    }

    /** The WAL's directory inside this one, created if missing. */
    public Path walDirectory() {
        Path wal = path.resolve(WAL_DIRECTORY);
        try {
            Files.createDirectories(wal);
            return wal;
        } catch (IOException e) {
            throw failure("cannot create the WAL directory", wal, e);
        }
    }

    /** What a file written with {@link #writeAtomically} holds, or empty when there is none. */
    public Optional<byte[]> read(String fileName) {
        Path file = fileNamed(fileName);
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw failure("cannot read", file, e);
        }
    }

    /** {@link #writeAtomically(String, ContentWriter)} with the whole content at hand. */
    public void writeAtomically(String fileName, byte[] content) {
        writeAtomically(fileName, out -> out.write(content));
    }

    /**
     * Replaces (or creates) {@code fileName} in this directory as one step, durably: writes {@code NAME.tmp},
     * forces it, renames it over {@code NAME} and forces the directory. After a crash the file is the old one or
     * the new one; a leftover {@code NAME.tmp} is overwritten by the next write.
     *
     * @param fileName a plain file name (no directory), not {@code LOCK}
     */
    public void writeAtomically(String fileName, ContentWriter content) {
        Path target = fileNamed(fileName);
        Path temp = path.resolve(fileName + TEMP_SUFFIX);
        try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
            content.writeTo(out);
            out.flush();
            channel.force(true);
        } catch (IOException e) {
            throw failure("cannot write", temp, e);
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            DirectorySync.force(path);
        } catch (IOException e) {
            throw failure("cannot rename into place", target, e);
        }
    }

    /** Writes a file's content to the stream it is given; the stream is flushed and forced afterwards. */
    @FunctionalInterface
    public interface ContentWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    private Path fileNamed(String fileName) {
        Path file = path.resolve(fileName);
        if (fileName.isEmpty()
                || fileName.equals(".")
                || fileName.equals("..")
                || !path.equals(file.getParent())
                || fileName.equals(LOCK_FILE)
                || fileName.equals(WAL_DIRECTORY)
                || fileName.endsWith(TEMP_SUFFIX)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "not a data file name: name=" + fileName + " — a plain name, not " + LOCK_FILE + ", "
                            + WAL_DIRECTORY + " or *" + TEMP_SUFFIX);
        }
        return file;
    }

    private static NumacubeException failure(String what, Path file, IOException e) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                GroupCommit.IO_ERROR,
                what + ": file=" + file + " error=" + IoReason.of(e),
                null,
                e);
    }

    /** Releases the lock; another server may then open the directory. */
    @Override
    public void close() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            throw failure("cannot release the lock", path.resolve(LOCK_FILE), e);
        }
    }
}
