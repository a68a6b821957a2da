package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** HTTP Basic's password check: the right answers, and PBKDF2 paid once per TTL for good credentials only. */
class PasswordCheckTest {

    private final AtomicLong clock = new AtomicLong(1_000);
    private final PasswordCheck check = new PasswordCheck(TestUsers.directory(), Duration.ofSeconds(60), clock::get);

    @Test
    void theRightPasswordGivesTheUsersIdentity() {
        assertEquals(
                Optional.of(new Identity(TestUsers.WRITER, Role.WRITER)),
                check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD));
        assertEquals(
                Optional.of(new Identity(TestUsers.READER, Role.READER)),
                check.check(TestUsers.READER, TestUsers.READER_PASSWORD));
    }

    @Test
    void aWrongPasswordAnotherUsersPasswordAndAnUnknownUserFail() {
        assertEquals(Optional.empty(), check.check(TestUsers.WRITER, "guess"));
        assertEquals(Optional.empty(), check.check(TestUsers.WRITER, TestUsers.READER_PASSWORD));
        assertEquals(Optional.empty(), check.check("mallory", TestUsers.WRITER_PASSWORD));
        assertEquals(Optional.empty(), check.check(TestUsers.WRITER, ""));
        assertEquals(3, check.derivations(), "an unknown user costs a derivation as a known one does");
    }

    @Test
    void aSuccessIsRememberedForTheTtlAndAFailureNever() {
        check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertEquals(1, check.derivations());
        check.check(TestUsers.WRITER, "guess");
        check.check(TestUsers.WRITER, "guess");
        assertEquals(3, check.derivations());
        clock.addAndGet(Duration.ofSeconds(59).toNanos());
        assertEquals(
                Optional.of(new Identity(TestUsers.WRITER, Role.WRITER)),
                check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD));
        assertEquals(3, check.derivations());
        clock.addAndGet(Duration.ofSeconds(2).toNanos());
        check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertEquals(4, check.derivations(), "expired: derived again");
    }

    @Test
    void aRememberedPasswordIsNotAnotherUsers() {
        check.check(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertEquals(Optional.empty(), check.check(TestUsers.READER, TestUsers.WRITER_PASSWORD));
        assertEquals(
                Optional.empty(), check.check(TestUsers.WRITER + TestUsers.WRITER_PASSWORD.charAt(0), "lice-secret"));
    }

    @Test
    void aDirectoryRefusesTwoUsersOfOneName() {
        User a = new User("alice", Role.READER, TestUsers.verifier("x"));
        NumacubeException e = assertThrows(NumacubeException.class, () -> UserDirectory.of(List.of(a, a)));
        assertEquals("duplicate user: user=alice", e.getMessage());
    }
}
