package io.numacube.server.auth;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The auth file of {@code numacube serve --auth-file}: UTF-8 text, one user a line, blank lines and {@code #} comments
 * allowed:
 *
 * <pre>
 * # NAME:ROLE:VERIFIER
 * alice:writer:SCRAM-SHA-256$4096:SALT$STOREDKEY:SERVERKEY
 * bob:reader:SCRAM-SHA-256$4096:SALT$STOREDKEY:SERVERKEY
 * </pre>
 *
 * The verifier is PostgreSQL's text ({@link ScramVerifier}); the role {@code reader} or {@code writer}. Reading fails
 * with the file and line of the first bad line (not a user line, an unknown role, a bad verifier, a user named
 * twice), and, as ssh does with a private key, when group or others may read or write the file: its verifiers allow
 * guessing passwords offline. Files are written whole ({@link #save}): a temporary file with owner-only permissions,
 * forced to disk, then renamed over the old one, keeping comments and the order of the other lines. Immutable: the
 * {@code with} methods return a new one.
 */
public final class AuthFile {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final String HEADER = "# numacube auth file: NAME:ROLE:VERIFIER, one user a line; roles reader and"
            + " writer; manage with numacube auth add-user | remove-user | list";

    /** A line as read: a user's, or other text (a comment, a blank line) kept as it was. */
    private record Line(String text, User user) {}

    private final Path file;
    private final List<Line> lines;

    private AuthFile(Path file, List<Line> lines) {
        this.file = file;
        this.lines = List.copyOf(lines);
    }

    /**
     * The users of the file, for a server.
     *
     * @throws NumacubeException INVALID_INPUT for a missing, unprotected or bad file, or one without users
     */
    public static UserDirectory readUsers(Path file) {
        if (!Files.exists(file)) {
            throw invalid("no auth file: file=" + file + " — create it with numacube auth add-user --file " + file
                    + " --user NAME --role reader|writer");
        }
        AuthFile f = load(file);
        if (f.users().isEmpty()) {
            throw invalid("the auth file has no users: file=" + file + " — add one with numacube auth add-user --file "
                    + file + " --user NAME --role reader|writer");
        }
        return UserDirectory.of(f.users());
    }

    /**
     * The file to read or change; a file that does not exist yet has no lines.
     *
     * @throws NumacubeException INVALID_INPUT for an unprotected, unreadable or bad file
     */
    public static AuthFile load(Path file) {
        List<String> text;
        try {
            checkProtected(file);
            text = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new AuthFile(file, List.of());
        } catch (java.nio.charset.CharacterCodingException e) {
            throw invalid("the auth file is not UTF-8 text: file=" + file);
        } catch (IOException e) {
            throw invalid("cannot read the auth file: file=" + file + " error=" + e.getMessage());
        }
        List<Line> lines = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < text.size(); i++) {
            Line line = parse(file, i + 1, text.get(i));
            if (line.user() != null) {
                Integer first = seen.putIfAbsent(line.user().name(), i + 1);
                if (first != null) {
                    throw at(
                            file,
                            i + 1,
                            "duplicate user: user=" + line.user().name() + " (first on line " + first
                                    + ") — each user has one line");
                }
            }
            lines.add(line);
        }
        return new AuthFile(file, lines);
    }

    public Path file() {
        return file;
    }

    public List<User> users() {
        return lines.stream().map(Line::user).filter(u -> u != null).toList();
    }

    public boolean has(String name) {
        return users().stream().anyMatch(u -> u.name().equals(name));
    }

    /** With {@code user}'s line in place of the line of the user of that name, or added at the end. */
    public AuthFile withUser(User user) {
        List<Line> out = new ArrayList<>(lines);
        Line line = new Line(null, user);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).user() != null && out.get(i).user().name().equals(user.name())) {
                out.set(i, line);
                return new AuthFile(file, out);
            }
        }
        if (out.isEmpty()) {
            out.add(new Line(HEADER, null));
        }
        out.add(line);
        return new AuthFile(file, out);
    }

    /** @throws NumacubeException INVALID_INPUT when there is no such user */
    public AuthFile withoutUser(String name) {
        if (!has(name)) {
            throw invalid("no such user: user=" + name + " file=" + file + " — numacube auth list --file " + file
                    + " lists them");
        }
        return new AuthFile(
                file,
                lines.stream()
                        .filter(l -> l.user() == null || !l.user().name().equals(name))
                        .toList());
    }

    /**
     * Writes the file whole, readable and writable by its owner only where the file system has POSIX permissions.
     *
     * @throws NumacubeException PLATFORM when it cannot be written
     */
    public void save() {
        StringBuilder text = new StringBuilder();
        for (Line l : lines) {
            text.append(l.user() == null ? l.text() : format(l.user())).append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            boolean posix =
                    Files.getFileStore(absoluteParent(file)).supportsFileAttributeView(PosixFileAttributeView.class);
            if (posix) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            }
            try (FileChannel ch = FileChannel.open(
                    tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(StandardCharsets.UTF_8.encode(text.toString()));
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "cannot write the auth file: file=" + file + " error=" + e.getMessage(),
                    e);
        }
    }

    /** A user's line: {@code NAME:ROLE:VERIFIER}. */
    static String format(User u) {
        return u.name() + ":" + u.role().text() + ":" + u.verifier().text();
    }

    private static Line parse(Path file, int number, String text) {
        String s = text.strip();
        if (s.isEmpty() || s.startsWith("#")) {
            return new Line(text, null);
        }
        String[] f = s.split(":", 3);
        if (f.length < 3) {
            throw at(
                    file,
                    number,
                    "not a user line: expected NAME:ROLE:SCRAM-SHA-256$ITERATIONS:SALT$STOREDKEY:SERVERKEY"
                            + " (or a # comment)");
        }
        try {
            return new Line(null, new User(f[0], Role.parse(f[1]), ScramVerifier.parse(f[2])));
        } catch (NumacubeException e) {
            throw at(file, number, e.getMessage());
        }
    }

    /** As ssh refuses a private key others can read: the verifiers allow guessing passwords offline. */
    private static void checkProtected(Path file) throws IOException {
        if (!Files.getFileStore(absoluteParent(file)).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
        boolean open = p.stream()
                .anyMatch(x -> x.name().startsWith("GROUP_") || x.name().startsWith("OTHERS_"));
        if (open) {
            throw invalid("the auth file may be read or changed by others: file=" + file + " permissions="
                    + PosixFilePermissions.toString(p) + " — its password verifiers allow guessing passwords "
                    + "offline; run chmod 600 " + file);
        }
    }

    private static Path absoluteParent(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        return parent == null ? file.toAbsolutePath() : parent;
    }

    private static NumacubeException at(Path file, int line, String detail) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                null,
                detail,
                ErrorPosition.file(file.toString(), line, 0, null),
                null);
    }

    private static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
