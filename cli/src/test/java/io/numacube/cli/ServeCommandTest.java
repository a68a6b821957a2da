package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What {@code serve} refuses before it loads anything. The running server is checked by the server module's tests
 * and, as a real process with curl and psql, by {@code tools/serve-check}.
 */
class ServeCommandTest {

    @Test
    void aNonLoopbackAddressIsRefusedSayingWhy() {
        CliRun r = CliRun.of("serve", "--generate", "10", "--bind", "0.0.0.0");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode());
        assertTrue(r.err().contains("numacube serve listens on a loopback address only: bind=0.0.0.0"), r.err());
        assertTrue(r.err().contains("there is no authentication yet (it comes in a later phase)"), r.err());
        assertEquals("", r.out(), "no ready line");
        assertTrue(!r.err().contains("generated"), "refused before generating: " + r.err());
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
