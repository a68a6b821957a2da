package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The auth file: what is read, what is refused (with file and line), and what is written. */
class AuthFileTest {

    @TempDir
    Path dir;

    private Path write(String... lines) throws IOException {
        Path f = dir.resolve("users.auth");
        Files.write(f, List.of(lines));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    private static String line(String name, String role, String password) {
        return name + ":" + role + ":" + TestUsers.verifier(password).text();
    }

    @Test
    void readsUsersRolesAndVerifiersSkippingCommentsAndBlankLines() throws IOException {
        Path f = write("# users", "", line("alice", "writer", "a-pw"), "  # bob reads", line("bob", "reader", "b-pw"));
        UserDirectory users = AuthFile.readUsers(f);
        assertEquals(
                List.of("alice", "bob"), users.users().stream().map(User::name).toList());
        assertEquals(Role.WRITER, users.find("alice").orElseThrow().role());
        assertEquals(Role.READER, users.find("bob").orElseThrow().role());
        assertTrue(users.find("bob").orElseThrow().verifier().matches("b-pw"));
        assertTrue(users.find("carol").isEmpty());
    }

    @Test
    void aBadLineIsNamedByFileAndLine() throws IOException {
        assertRefused(":3: not a user line", "# c", line("alice", "writer", "pw"), "bob reader");
        assertRefused(":1: unknown role: role=admin — roles: reader, writer", line("alice", "admin", "pw"));
        assertRefused(":2: not a SCRAM-SHA-256 verifier", line("a", "reader", "pw"), "b:reader:md5abcdef");
        assertRefused(":1: a user name must not be empty", line("", "reader", "pw"));
        assertRefused(":1: a user name must not contain", line("al ice", "reader", "pw"));
        assertRefused(
                ":3: duplicate user: user=alice (first on line 1)",
                line("alice", "writer", "pw"),
                line("bob", "reader", "pw"),
                line("alice", "reader", "pw2"));
    }

    @Test
    void aFileOthersMayReadIsRefusedAsSshRefusesAKey() throws IOException {
        Path f = write(line("alice", "writer", "pw"));
        for (String perms : List.of("rw-r--r--", "rw----r--", "rw--w----")) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
            NumacubeException e = assertThrows(NumacubeException.class, () -> AuthFile.readUsers(f));
            assertEquals(
                    "the auth file may be read or changed by others: file=" + f + " permissions=" + perms
                            + " — its password verifiers allow guessing passwords offline; run chmod 600 " + f,
                    e.getMessage());
        }
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--------"));
        assertEquals(1, AuthFile.readUsers(f).size());
    }

    @Test
    void aServerNeedsAFileWithUsers() throws IOException {
        Path missing = dir.resolve("nope.auth");
        NumacubeException e = assertThrows(NumacubeException.class, () -> AuthFile.readUsers(missing));
        assertTrue(e.getMessage().startsWith("no auth file: file=" + missing), e.getMessage());
        Path empty = write("# nobody yet");
        e = assertThrows(NumacubeException.class, () -> AuthFile.readUsers(empty));
        assertTrue(e.getMessage().startsWith("the auth file has no users: file=" + empty), e.getMessage());
    }

    @Test
    void savingKeepsCommentsAndOrderAndOwnerOnlyPermissions() throws IOException {
        Path f = write("# team", line("alice", "writer", "a-pw"), "# readers", line("bob", "reader", "b-pw"));
        User carol = new User("carol", Role.READER, TestUsers.verifier("c-pw"));
        User alice = new User("alice", Role.READER, TestUsers.verifier("new-pw"));
        AuthFile.load(f).withUser(carol).withUser(alice).withoutUser("bob").save();
        assertEquals(
                List.of("# team", AuthFile.format(alice), "# readers", AuthFile.format(carol)), Files.readAllLines(f));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        UserDirectory users = AuthFile.readUsers(f);
        assertTrue(users.find("alice").orElseThrow().verifier().matches("new-pw"));
        assertEquals(Role.READER, users.find("alice").orElseThrow().role());
        assertTrue(Files.notExists(dir.resolve("users.auth.tmp")));
    }

    @Test
    void aNewFileStartsWithAHeaderAndIsOwnerOnly() throws IOException {
        Path f = dir.resolve("new.auth");
        AuthFile.load(f)
                .withUser(new User("alice", Role.WRITER, TestUsers.verifier("pw")))
                .save();
        List<String> lines = Files.readAllLines(f);
        assertTrue(lines.getFirst().startsWith("# numacube auth file: NAME:ROLE:VERIFIER"), lines.getFirst());
        assertEquals(2, lines.size());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertTrue(AuthFile.readUsers(f).find("alice").orElseThrow().verifier().matches("pw"));
    }

    @Test
    void removingAUserThatIsNotThereSaysSo() throws IOException {
        Path f = write(line("alice", "writer", "pw"));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> AuthFile.load(f).withoutUser("bob"));
        assertTrue(e.getMessage().startsWith("no such user: user=bob file=" + f), e.getMessage());
    }

    private void assertRefused(String expected, String... lines) throws IOException {
        Path f = write(lines);
        NumacubeException e = assertThrows(NumacubeException.class, () -> AuthFile.readUsers(f));
        assertTrue(e.getMessage().startsWith(f + expected), e.getMessage());
    }
}
