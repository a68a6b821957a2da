package io.numacube.numa.topology;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The root under which sysfs and procfs are read: {@code /} for the live machine, any directory for a fixture tree
 * or a snapshot saved by {@link SnapshotWriter} (which keeps the absolute layout: {@code dir/sys/devices/...}).
 *
 * <p>Missing files are normal: many facts are optional, so the read methods answer {@link Optional#empty()} for a
 * file that does not exist or may not be read. A file that exists but cannot be read for another reason, or is larger
 * than {@value #MAX_FILE_BYTES} bytes (no file numacube reads is), fails with a {@link NumacubeException} naming it.
 * Bytes are decoded as UTF-8 with replacement, so garbage never throws a decoding error.
 *
 * <p>Immutable and thread-safe; it reads the file system on every call and caches nothing.
 */
public final class SystemRoot {

    /** Files larger than this are refused: sysfs files are at most a page, /proc/self/status a few KiB. */
    public static final int MAX_FILE_BYTES = 1 << 20;

    private static final SystemRoot LIVE = new SystemRoot(Path.of("/"));

    private final Path root;

    private SystemRoot(Path root) {
        this.root = root;
    }

    /** The live machine: paths resolve to themselves. */
    public static SystemRoot live() {
        return LIVE;
    }

    /** A fixture or snapshot directory holding {@code sys/...} and {@code proc/...}. {@code /} gives {@link #live()}. */
    public static SystemRoot at(Path root) {
        Path abs = root.toAbsolutePath().normalize();
        return abs.equals(Path.of("/")) ? LIVE : new SystemRoot(abs);
    }

    /** The root directory ({@code /} when live). */
    public Path root() {
        return root;
    }

    /** True when this is the running machine ({@code /}), so that kernel calls describe the same facts as the files. */
    public boolean isLive() {
        return root.equals(Path.of("/"));
    }

    /** Where the absolute path {@code absolutePath} (e.g. {@code /sys/devices/system/node/online}) lies under this root. */
    public Path resolve(String absolutePath) {
        if (absolutePath == null || !absolutePath.startsWith("/")) {
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL, "SystemRoot.resolve needs an absolute path: path=" + absolutePath);
        }
        String relative = absolutePath.replaceFirst("^/+", "");
        return relative.isEmpty() ? root : root.resolve(relative);
    }

    public boolean exists(String absolutePath) {
        return Files.exists(resolve(absolutePath));
    }

    public boolean isDirectory(String absolutePath) {
        return Files.isDirectory(resolve(absolutePath));
    }

    /** The file's whole text, or empty when it is missing or unreadable (permission). */
    public Optional<String> readRaw(String absolutePath) {
        Path p = resolve(absolutePath);
        if (Files.isDirectory(p)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "file too large for a sysfs/procfs fact: file=" + absolutePath + " root=" + root + " limit="
                                + MAX_FILE_BYTES + " bytes — is the root pointing at the right tree?");
            }
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        } catch (NoSuchFileException | AccessDeniedException | NotDirectoryException e) {
            return Optional.empty();
        } catch (IOException e) {
            // sysfs answers some reads of existing files with EIO/ENODEV (e.g. a vanished device): treat as missing.
            if (isLive()) {
                return Optional.empty();
            }
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "cannot read file: file=" + absolutePath + " root=" + root + " error=" + e,
                    e);
        }
    }

    /** The file's text with surrounding white space (the kernel's trailing newline) removed; empty when missing. */
    public Optional<String> read(String absolutePath) {
        return readRaw(absolutePath).map(String::strip);
    }

    /** The file's lines (raw, not stripped); empty when missing. */
    public Optional<List<String>> readLines(String absolutePath) {
        return readRaw(absolutePath).map(s -> s.lines().toList());
    }

    /**
     * A CPU list file ({@code 0-3,8}); empty when the file is missing. An empty file is the empty set.
     *
     * @throws NumacubeException (SYNTAX or INVALID_INPUT) naming the file and its text when it does not parse
     */
    public Optional<CpuSet> readCpuList(String absolutePath) {
        return read(absolutePath).map(text -> parseList(absolutePath, text, "cpu", CpuSet::parse));
    }

    /** A node list file ({@code 0-1,4}); empty when missing. Throws as {@link #readCpuList(String)}. */
    public Optional<NodeSet> readNodeList(String absolutePath) {
        return read(absolutePath).map(text -> parseList(absolutePath, text, "node", NodeSet::parse));
    }

    /**
     * Parses {@code text} read from {@code absolutePath} with {@code parser}, turning a parse failure into an error that
     * names the file and the bad text: the rule, the facts, then what to do.
     */
    public <T> T parseList(
            String absolutePath, String text, String what, java.util.function.Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (NumacubeException e) {
            throw new NumacubeException(
                    e.kind(),
                    "unreadable " + what + " list: file=" + absolutePath
                            + " root=" + root + " text=\"" + abbreviate(text) + "\" (" + e.getMessage()
                            + ") — check the file; a snapshot may be damaged or hand-edited",
                    e);
        }
    }

    /** At most 80 characters of {@code text}, one line, for messages. */
    public static String abbreviate(String text) {
        String t = text.strip().replace("\n", "\\n");
        return t.length() <= 80 ? t : t.substring(0, 77) + "...";
    }

    /** Names of the entries in a directory, sorted; empty list when it is missing or not a directory. */
    public List<String> list(String absoluteDir) {
        Path d = resolve(absoluteDir);
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(d)) {
            List<String> names =
                    new ArrayList<>(s.map(p -> p.getFileName().toString()).toList());
            names.sort(null);
            return names;
        } catch (IOException e) {
            return List.of();
        }
    }

    @Override
    public String toString() {
        return isLive() ? "live(/)" : "snapshot(" + root + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SystemRoot r && r.root.equals(root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }
}
