package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code serve} refuses before it loads anything. The running server is checked by the server module's tests
 * and, as a real process with curl and psql, by {@code tools/serve-check}.
 */
class ServeCommandTest {

    @Test
    void aNonLoopbackAddressWithoutAnAuthFileIsRefusedSayingWhy() {
        CliRun r = CliRun.of("serve", "--generate", "10", "--bind", "0.0.0.0");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode());
        assertTrue(
                r.err()
                        .contains("numacube serve listens on a non-loopback address only with --auth-file: "
                                + "bind=0.0.0.0 address=0.0.0.0 — without users and passwords anyone who reaches the ports "
                                + "could read and write every table"),
                r.err());
        assertTrue(r.err().contains("numacube auth add-user --file FILE --user NAME --role reader|writer"), r.err());
        assertEquals("", r.out(), "no ready line");
        assertTrue(!r.err().contains("generated"), "refused before generating: " + r.err());
    }

    @Test
    void anAuthFileOthersMayReadOrThatIsMissingIsRefusedBeforeLoading(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("users.auth");
        CliRun missing = CliRun.of("serve", "--generate", "10", "--auth-file", f.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, missing.exitCode());
        assertTrue(missing.err().contains("no auth file: file=" + f), missing.err());
        CliRun added = CliRun.withStdin(
                "pw\n",
                "auth",
                "add-user",
                "--file",
                f.toString(),
                "--user",
                "alice",
                "--role",
                "writer",
                "--password-stdin");
        assertEquals(0, added.exitCode(), added.err());
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        CliRun open = CliRun.of("serve", "--generate", "10", "--bind", "0.0.0.0", "--auth-file", f.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, open.exitCode());
        assertTrue(open.err().contains("the auth file may be read or changed by others: file=" + f), open.err());
        assertTrue(open.err().contains("run chmod 600 " + f), open.err());
        assertTrue(!open.err().contains("generated"), "refused before generating: " + open.err());
    }

    @Test
    void servingNeedsData() {
        CliRun r = CliRun.of("serve");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode());
        assertTrue(r.err().contains("serve needs data"), r.err());
    }

    @Test
    void optionsAreChecked() {
        CliRun timeout = CliRun.of("serve", "--generate", "10", "--query-timeout", "5x");
        assertEquals(ErrorReporter.USAGE_ERROR, timeout.exitCode());
        assertTrue(timeout.err().contains("not a duration: value=5x"), timeout.err());
        CliRun port = CliRun.of("serve", "--generate", "10", "--http-port", "70000");
        assertEquals(ErrorReporter.USAGE_ERROR, port.exitCode());
        assertTrue(port.err().contains("a port is 0 (any free one) to 65535: http-port=70000"), port.err());
    }
}
