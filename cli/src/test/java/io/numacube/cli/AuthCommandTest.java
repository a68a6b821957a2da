package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.server.auth.AuthFile;
import io.numacube.server.auth.Role;
import io.numacube.server.auth.User;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code numacube auth add-user | remove-user | list}: the file they leave, and what they refuse. */
class AuthCommandTest {

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("users.auth");
    }

    private CliRun add(String user, String role, String password, String... more) {
        String[] args = {
            "auth", "add-user", "--file", file().toString(), "--user", user, "--role", role, "--password-stdin"
        };
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(more))
                .toArray(String[]::new);
        return CliRun.withStdin(password + "\n", all);
    }

    private User user(String name) {
        return AuthFile.load(file()).users().stream()
                .filter(u -> u.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void addedUsersAreListedWithTheirRolesAndTheirPasswordsVerify() throws IOException {
        CliRun a = add("alice", "writer", "alice pw ünï");
        assertEquals(0, a.exitCode(), a.err());
        assertEquals("added user alice (writer) in " + file() + "\n", a.out());
        assertEquals(0, add("bob", "reader", "bob-pw\r").exitCode(), "a CRLF line end is not the password's");
        assertTrue(user("alice").verifier().matches("alice pw ünï"));
        assertFalse(user("alice").verifier().matches("alice pw"));
        assertTrue(user("bob").verifier().matches("bob-pw"));
        assertEquals(Role.READER, user("bob").role());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
        assertFalse(Files.readString(file()).contains("bob-pw"), "no password in the file");
        CliRun list = CliRun.of("auth", "list", "--file", file().toString());
        assertEquals(0, list.exitCode(), list.err());
        assertEquals("alice  writer  iterations=4096\nbob    reader  iterations=4096\n", list.out());
    }

    @Test
    void anExistingUserIsChangedOnlyWithReplace() {
        add("alice", "writer", "first");
        CliRun again = add("alice", "reader", "second");
        assertEquals(ErrorReporter.USAGE_ERROR, again.exitCode());
        assertTrue(again.err().contains("the user exists: user=alice file=" + file()), again.err());
        assertTrue(user("alice").verifier().matches("first"));
        CliRun replaced = add("alice", "reader", "second", "--replace");
        assertEquals(0, replaced.exitCode(), replaced.err());
        assertEquals("changed user alice (reader) in " + file() + "\n", replaced.out());
        assertTrue(user("alice").verifier().matches("second"));
        assertEquals(Role.READER, user("alice").role());
        assertEquals(1, AuthFile.load(file()).users().size());
    }

    @Test
    void removeUserRemovesOnlyThatUser() {
        add("alice", "writer", "a");
        add("bob", "reader", "b");
        CliRun r = CliRun.of("auth", "remove-user", "--file", file().toString(), "--user", "alice");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("removed user alice from " + file() + "\n", r.out());
        assertEquals(
                java.util.List.of("bob"),
                AuthFile.load(file()).users().stream().map(User::name).toList());
        CliRun again = CliRun.of("auth", "remove-user", "--file", file().toString(), "--user", "alice");
        assertEquals(ErrorReporter.USAGE_ERROR, again.exitCode());
        assertTrue(again.err().contains("no such user: user=alice"), again.err());
    }

    @Test
    void badInputIsRefusedAndNoFileIsWritten() {
        assertRefused(add("alice", "admin", "pw"), "unknown role: role=admin — roles: reader, writer");
        assertRefused(add("al:ice", "reader", "pw"), "a user name must not contain ':'");
        assertRefused(add("alice", "reader", ""), "the password is empty");
        assertRefused(add("alice", "reader", "pw", "--iterations", "1000"), "--iterations must be at least 4096");
        assertRefused(
                CliRun.of("auth", "add-user", "--file", file().toString(), "--user", "alice", "--role", "reader"),
                "no terminal to read the password from — pipe it in with --password-stdin");
        assertRefused(CliRun.of("auth", "list", "--file", file().toString()), "no auth file: file=" + file());
        assertFalse(Files.exists(file()));
    }

    private static void assertRefused(CliRun r, String message) {
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode(), r.err());
        assertTrue(r.err().contains(message), r.err());
    }
}
