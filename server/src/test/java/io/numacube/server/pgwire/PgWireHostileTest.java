package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What campaign 11 (hostile clients at the protocol level) found: messages whose bytes do not fit their type, a
 * FunctionCall, statements that overflow the stack, a portal executed twice. Each is an ERROR, as in PostgreSQL 15,
 * and the connection goes on; none closes it.
 */
class PgWireHostileTest {

    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        server = NumacubeServer.start(
                TestCube.shared(), ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aLongQuotedAliasIsAnsweredAndAStackOverflowIsAnErrorOfItsStatementOnly() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.query("SELECT 1 AS \"" + "a".repeat(20_000) + "\"");
            assertEquals("TDCZ", RawPgClient.types(c.untilReady()));
            c.query("SELECT current_setting('" + "x".repeat(20_000) + "')");
            List<RawPgClient.Message> unknown = c.untilReady();
            assertEquals("EZ", RawPgClient.types(unknown));
            assertEquals("ERROR", unknown.getFirst().fields().get('S'));
            c.query("SELECT 1 AS \"" + "\"\"".repeat(200_000) + "\"; SELECT 2");
            List<RawPgClient.Message> deep = c.untilReady();
            assertEquals("EZ", RawPgClient.types(deep));
            assertEquals("ERROR", deep.getFirst().fields().get('S'));
            assertEquals("54001", deep.getFirst().fields().get('C'));
            assertAlive(c);
        }
    }

    @Test
    void aMessageWhoseBytesDoNotFitItsTypeIsAnErrorAndTheConnectionGoesOn() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('Q', "SELECT 1".getBytes());
            assertError(c.untilReady(), "08P01");
            c.send('Q', "SELECT 1", "junk");
            assertError(c.untilReady(), "08P01");
            c.send('Q', new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xff, '\'', 0});
            assertError(c.untilReady(), "22021");
            c.send('S', (short) 7);
            assertError(c.untilReady(), "08P01");
            c.send('P', "", "SELECT 1", (short) -3);
            c.send('S');
            assertError(c.untilReady(), "08P01");
            c.send('P', "", "SELECT $1::int", (short) 0);
            c.send('B', "", "", (short) 0, (short) 1, 100, "1".getBytes(), (short) 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> bind = c.untilReady();
            assertEquals("1EZ", RawPgClient.types(bind));
            assertEquals("08P01", bind.get(1).fields().get('C'));
            c.send('C', 'Z', "x");
            c.send('D', 'Z', "x");
            c.send('S');
            assertError(c.untilReady(), "08P01");
            assertAlive(c);
        }
    }

    @Test
    void aFunctionCallIsAnsweredWithReadyForQueryWithoutASync() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('F', 1234, (short) 0, (short) 0, (short) 0);
            assertError(c.untilReady(), "0A000");
            assertAlive(c);
        }
    }

    @Test
    void aPortalWithoutRowsRunsOnceASecondExecuteIsRefused() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('P', "", "SET application_name = 'hostile'", (short) 0);
            c.send('B', "", "", (short) 0, (short) 0, (short) 0);
            c.send('E', "", 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> m =
                    c.untilReady().stream().filter(x -> x.type() != 'S').toList();
            assertEquals("12CEZ", RawPgClient.types(m));
            assertEquals("55000", m.get(3).fields().get('C'));
            assertAlive(c);
        }
    }

    @Test
    void aStartupPacketWithoutItsTerminatorIsRefused() throws IOException {
        for (String body : new String[] {"user\0raw", "user\0raw\0database\0x", "user\0\0"}) {
            try (RawPgClient c = new RawPgClient(server.pgAddress())) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 + body.length());
                b.putInt(8 + body.length()).putInt(196_608).put(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                c.raw(b.array());
                RawPgClient.Message e = c.read();
                assertEquals("FATAL", e.fields().get('S'), body);
                assertEquals("08P01", e.fields().get('C'), body);
            }
        }
    }

    private static void assertError(List<RawPgClient.Message> m, String sqlState) {
        assertEquals("EZ", RawPgClient.types(m), m.toString());
        assertEquals("ERROR", m.getFirst().fields().get('S'));
        assertEquals(
                sqlState, m.getFirst().fields().get('C'), m.getFirst().fields().toString());
    }

    private static void assertAlive(RawPgClient c) throws IOException {
        c.query("SELECT 1");
        assertEquals("TDCZ", RawPgClient.types(c.untilReady()));
    }
}
