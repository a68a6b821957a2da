package io.numacube.cli.output;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file a command writes (a report, generated data): checked before the work starts, so that a bad path fails in a
 * second rather than after a long load; written to a temporary file beside it and renamed, so that a failed or
 * interrupted write (a full disk, Ctrl-C) leaves no partial or empty file and any previous file as it was.
 * Stateless.
 */
public final class OutputFile {

    private OutputFile() {}

    /** What writes the file's bytes. */
    @FunctionalInterface
    public interface Body {
        void write(OutputStream out) throws IOException;
    }

    /**
     * Checks that {@code target} can be written: not a directory, its directory exists and is writable.
     *
     * @param option the option that named it, for the message (e.g. {@code --json})
     * @throws NumacubeException INVALID_INPUT naming the option, the path and what is wrong
     */
    public static void checkWritable(Path target, String option) {
        Path dir = target.toAbsolutePath().getParent();
        String problem = null;
        if (Files.isDirectory(target)) {
            problem = "it is a directory — name a file";
        } else if (dir == null || !Files.isDirectory(dir)) {
            problem = "its directory does not exist — create it first";
        } else if (!Files.isWritable(dir)) {
            problem = "its directory is not writable — check its permissions or write elsewhere";
        } else if (Files.exists(target) && !Files.isWritable(target)) {
            problem = "the file is not writable — check its permissions or write elsewhere";
        }
        if (problem != null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "cannot write " + option + " " + target + ": " + problem);
        }
    }

    /** Writes {@code text} as UTF-8, atomically ({@link #writeAtomically}). */
    public static void writeAtomically(Path target, String text) {
        writeAtomically(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Writes to a temporary file beside {@code target} and renames it over {@code target}. The temporary file's name
     * is unique, so two processes writing the same target never share it (the last rename wins, whole). A symbolic
     * link is followed (the file it names is replaced, the link stays); a target that exists and is not a regular
     * file (a device such as {@code /dev/stdout} or {@code /dev/full}, a FIFO) is written in place, since renaming
     * over it would replace the device node with a file.
     *
     * @throws NumacubeException PLATFORM when the write fails (the temporary file is removed)
     */
    public static void writeAtomically(Path target, Body body) {
        Path real = resolved(target);
        if (Files.exists(real) && !Files.isRegularFile(real)) {
            writeInPlace(target, real, body);
            return;
        }
        // unique per process, and not Files.createTempFile: its mode 0600 would become the written file's mode
        Path tmp = real.resolveSibling(
                "." + real.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Thread cleanup = new Thread(
                () -> {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        // the JVM is going down: nothing more to do
                    }
                },
                "numacube-output-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Files.deleteIfExists(tmp); // left by a killed process whose pid this one reuses
            try (OutputStream o = new BufferedOutputStream(
                    Files.newOutputStream(
                            tmp, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE),
                    1 << 16)) {
                body.write(o);
            }
            Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "cannot write " + target + ": error=" + IoReason.of(e) + " — no partial file was left");
        } catch (RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** The file a symbolic link names (the path itself when it does not exist yet or is no link). */
    private static Path resolved(Path target) {
        try {
            return Files.exists(target) ? target.toRealPath() : target;
        } catch (IOException e) {
            return target;
        }
    }

    private static void writeInPlace(Path target, Path real, Body body) {
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(real), 1 << 16)) {
            body.write(o);
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM, "cannot write " + target + ": error=" + IoReason.of(e));
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // the original failure is the one to report
        }
    }
}
