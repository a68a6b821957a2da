package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The protocol byte by byte: what a careful client sees, and what a broken or hostile one gets. */
class PgWireRawTest {

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
    void encryptionRequestsAreAnsweredNAndTheStartupGoesOnInTheClear() throws IOException {
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.packet(PgStartup.SSL_REQUEST);
            assertEquals('N', c.readByte());
            c.packet(PgStartup.GSSENC_REQUEST);
            assertEquals('N', c.readByte());
            c.startup(196_608, "user", "raw");
            List<RawPgClient.Message> m = c.untilReady();
            assertEquals('R', m.getFirst().type());
            assertEquals(0, ByteBuffer.wrap(m.getFirst().body()).getInt(), "AuthenticationOk");
            assertTrue(m.stream().anyMatch(x -> x.type() == 'S' && x.text().startsWith("server_version\u000016.0")));
            assertTrue(m.stream().anyMatch(x -> x.type() == 'S' && x.text().equals("DateStyle\0ISO, MDY\0")));
            assertTrue(m.stream().anyMatch(x -> x.type() == 'K' && x.body().length == 8));
            assertEquals("I", m.getLast().text());
        }
    }

    @Test
    void aStartupWithoutAUserOrOfProtocol2IsRefusedFatally() throws IOException {
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.startup(196_608, "database", "x");
            RawPgClient.Message e = c.read();
            assertEquals("FATAL", e.fields().get('S'));
            assertEquals("28000", e.fields().get('C'));
            assertEquals(null, c.read());
        }
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.startup(131_072, "user", "x");
            RawPgClient.Message e = c.read();
            assertEquals("0A000", e.fields().get('C'));
            assertEquals(
                    "unsupported frontend protocol 2.0: server supports 3.0 to 3.0",
                    e.fields().get('M'));
        }
    }

    @Test
    void aMalformedStartupPacketClosesThatConnectionOnly() throws IOException {
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.raw(new byte[] {0, 0, 0, 2, 1, 2, 3});
            RawPgClient.Message e = c.read();
            assertEquals("08P01", e.fields().get('C'));
            assertEquals(null, c.read());
        }
        try (RawPgClient ok = RawPgClient.connected(server.pgAddress())) {
            ok.query("SELECT 1");
            assertEquals("TDCZ", RawPgClient.types(ok.untilReady()));
        }
    }

    @Test
    void aMessageOverTheSizeLimitOrOfAnUnknownTypeEndsTheConnection() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.raw(new byte[] {'Q', 0x7f, 0, 0, 0});
            RawPgClient.Message e = c.read();
            assertEquals("FATAL", e.fields().get('S'));
            assertEquals("08P01", e.fields().get('C'));
            assertTrue(
                    e.fields().get('M').startsWith("message too large"),
                    e.fields().toString());
            assertEquals(null, c.read());
        }
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('?', "junk");
            assertEquals("08P01", c.read().fields().get('C'));
            assertEquals(null, c.read());
        }
    }

    @Test
    void aSimpleQueryRunsItsStatementsUntilTheFirstError() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.query("");
            assertEquals("IZ", RawPgClient.types(c.untilReady()));
            String q = "SELECT 1 AS one; SELECT desk, nosuch FROM trades; SELECT 2";
            c.query(q);
            List<RawPgClient.Message> m = c.untilReady();
            assertEquals("TDCEZ", RawPgClient.types(m));
            assertEquals("SELECT 1\0", m.get(2).text());
            assertEquals("42703", m.get(3).fields().get('C'));
            assertEquals(
                    String.valueOf(q.indexOf("nosuch") + 1), m.get(3).fields().get('P'));
        }
    }

    @Test
    void theTransactionStatusFollowsBeginErrorsAndRollback() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.query("BEGIN");
            assertEquals("T", c.untilReady().getLast().text());
            c.query("SELECT nosuch FROM trades");
            assertEquals("E", c.untilReady().getLast().text());
            c.query("SELECT COUNT(*) FROM trades");
            List<RawPgClient.Message> refused = c.untilReady();
            assertEquals("25P02", refused.getFirst().fields().get('C'));
            assertEquals("E", refused.getLast().text());
            c.query("COMMIT");
            List<RawPgClient.Message> end = c.untilReady();
            assertEquals("ROLLBACK\0", end.getFirst().text(), "COMMIT of a failed transaction rolls back");
            assertEquals("I", end.getLast().text());
            c.query("COMMIT");
            List<RawPgClient.Message> warned = c.untilReady();
            assertEquals("NCZ", RawPgClient.types(warned));
            assertEquals("25P01", warned.getFirst().fields().get('C'));
        }
    }

    @Test
    void afterAnErrorTheExtendedProtocolSkipsToSync() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('B', "", "nope", (short) 0, (short) 0, (short) 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> m = c.untilReady();
            assertEquals("EZ", RawPgClient.types(m));
            assertEquals("26000", m.getFirst().fields().get('C'));
            c.send('P', "", "SELECT desk FROM trades WHERE desk = $1 ORDER BY desk LIMIT 1", (short) 0);
            c.send('B', "", "", (short) 0, (short) 1, 7, "DESK-07".getBytes(), (short) 0);
            c.send('D', 'P', "");
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> ok = c.untilReady();
            assertEquals("12TDCZ", RawPgClient.types(ok));
            assertTrue(ok.get(3).text().endsWith("DESK-07"), ok.get(3).text());
        }
    }

    /**
     * asyncpg's prepare: Parse with no parameter types, Describe, Flush (no Sync). The Describe tells each parameter's
     * type as PostgreSQL infers it (bigint beside trade_id and after LIMIT, text beside desk, text where nothing tells),
     * an error is sent at the Flush, and a Bind in binary by those types answers.
     */
    @Test
    void aDescribeBeforeBindInfersTheParameterTypesAndAFlushSendsAnError() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send(
                    'P',
                    "a",
                    "SELECT trade_id, $4 FROM trades WHERE trade_id > $1 AND desk = $2 ORDER BY 1 LIMIT $3",
                    (short) 0);
            c.send('D', 'S', "a");
            c.send('H');
            assertEquals('1', c.read().type());
            ByteBuffer params = ByteBuffer.wrap(c.read().body());
            assertEquals(4, params.getShort());
            assertEquals(
                    List.of(20, 25, 20, 25),
                    List.of(params.getInt(), params.getInt(), params.getInt(), params.getInt()),
                    "bigint, text, bigint, text");
            assertEquals('T', c.read().type());
            c.send('P', "b", "SELECT trade_id FROM trades WHERE trade_id = $1 AND nosuch = 1", (short) 0);
            c.send('D', 'S', "b");
            c.send('H');
            assertEquals('1', c.read().type(), "numacube binds at Describe, not at Parse");
            RawPgClient.Message e = c.read();
            assertEquals('E', e.type(), "the error comes at the Flush, before any Sync");
            assertEquals("42703", e.fields().get('C'));
            assertEquals("53", e.fields().get('P'), "the position of nosuch in the statement as the client wrote it");
            c.send('S');
            assertEquals("Z", RawPgClient.types(c.untilReady()));
            byte[] after = ByteBuffer.allocate(8).putLong(0L).array();
            c.send(
                    'B',
                    "",
                    "a",
                    (short) 1,
                    (short) 1,
                    (short) 4,
                    8,
                    after,
                    7,
                    "DESK-07".getBytes(),
                    8,
                    ByteBuffer.allocate(8).putLong(3L).array(),
                    1,
                    "x".getBytes(),
                    (short) 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> rows = c.untilReady();
            assertEquals("2DDDCZ", RawPgClient.types(rows), "three rows of DESK-07, as LIMIT $3 = 3 asks");
        }
    }

    /**
     * node-postgres's way: Parse with no parameter types, Bind with text values, no Describe of the statement. The
     * text {@code 19990} beside trade_id is a bigint, as PostgreSQL reads it, not the string it was compared as.
     */
    @Test
    void untypedTextParametersAreReadAsTheTypeTheyMeetWithoutADescribe() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            for (int round = 0; round < 2; round++) {
                c.send('P', "", "SELECT COUNT(*) FROM trades WHERE trade_id > $1 AND desk <> $2", (short) 0);
                c.send('B', "", "", (short) 0, (short) 2, 5, "19990".getBytes(), 1, "x".getBytes(), (short) 0);
                c.send('D', 'P', "");
                c.send('E', "", 0);
                c.send('S');
                List<RawPgClient.Message> m = c.untilReady();
                assertEquals("12TDCZ", RawPgClient.types(m), "round " + round);
                long expected = TestCube.shared()
                        .query("SELECT COUNT(*) FROM trades WHERE trade_id > 19990")
                        .getLong(0, 0);
                assertTrue(
                        m.get(3).text().endsWith(Long.toString(expected)),
                        m.get(3).text());
            }
        }
    }

    /**
     * asyncpg's {@code fetch('SELECT price * $1 FROM kinds', Decimal('1.5'))}: Parse untyped, Describe the statement
     * (the parameter is numeric, as it meets price), then Bind and Execute without describing the portal. PostgreSQL
     * describes {@code price * $1} as a numeric without a modifier, whatever scale the value has; numacube described
     * numeric(18,2) from its placeholder 0 and refused the rows of 1.5 (numeric(18,3)) as a changed result type, so
     * asyncpg, which prepares again and gets the same description, could not run it at all.
     */
    @Test
    void aNumericParameterOfAnyScaleRunsAfterTheStatementWasDescribed() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('P', "s", "SELECT price * $1 AS v, price FROM kinds WHERE id = 1", (short) 0);
            c.send('D', 'S', "s");
            c.send('S');
            List<RawPgClient.Message> described = c.untilReady();
            assertEquals("1tTZ", RawPgClient.types(described));
            ByteBuffer params = ByteBuffer.wrap(described.get(1).body());
            params.getShort();
            assertEquals(1700, params.getInt(), "numeric, as the parameter meets price");
            for (String value : List.of("1.5", "2", "0.001", "-3.25")) {
                c.send('B', "", "s", (short) 0, (short) 1, value.length(), value.getBytes(), (short) 0);
                c.send('E', "", 0);
                c.send('S');
                List<RawPgClient.Message> m = c.untilReady();
                assertEquals(
                        "2DCZ",
                        RawPgClient.types(m),
                        value + ": " + m.getFirst().fields() + m.get(1).fields());
                java.math.BigDecimal expected =
                        new java.math.BigDecimal("10.51").multiply(new java.math.BigDecimal(value));
                assertTrue(
                        m.get(1).text().contains(expected.toPlainString()),
                        value + ": " + m.get(1).text() + " for " + expected);
            }
        }
    }

    /**
     * A statement is described by running it with a stand-in for each parameter: the stand-in 0 made asyncpg's prepare
     * of {@code trade_id % $1} fail with 22012 (division by zero) before any value was sent, though every value but 0
     * runs; PostgreSQL describes it without running it.
     */
    @Test
    void aParameterThatDividesIsDescribedWithoutADivisionByZero() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            for (String sql : List.of(
                    "SELECT COUNT(*) FROM trades WHERE trade_id % $1 = 0",
                    "SELECT SUM(pnl) / $1 FROM trades",
                    "SELECT COUNT(*) FROM trades WHERE trade_id % $1 = 0 AND pnl > $2")) {
                c.send('P', "", sql, (short) 0);
                c.send('D', 'S', "");
                c.send('S');
                List<RawPgClient.Message> m = c.untilReady();
                assertEquals("1tTZ", RawPgClient.types(m), sql + ": " + m.get(1).fields());
            }
            c.send('P', "", "SELECT COUNT(*) FROM trades WHERE trade_id % $1 = 0", (short) 0);
            c.send('B', "", "", (short) 0, (short) 1, 1, "7".getBytes(), (short) 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> m = c.untilReady();
            long expected = TestCube.shared()
                    .query("SELECT COUNT(*) FROM trades WHERE trade_id % 7 = 0")
                    .getLong(0, 0);
            assertTrue(
                    m.get(2).text().endsWith(Long.toString(expected)), m.get(2).text());
        }
    }

    /** A NULL LIMIT is no limit and a NULL OFFSET none, as in PostgreSQL: they were bound as LIMIT NULL, 42601. */
    @Test
    void aNullLimitOrOffsetParameterLimitsNothing() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send(
                    'P',
                    "",
                    "SELECT COUNT(*) FROM (SELECT trade_id FROM trades ORDER BY trade_id LIMIT $1 OFFSET $2) AS x",
                    (short) 0);
            c.send('B', "", "", (short) 0, (short) 2, -1, -1, (short) 0);
            c.send('E', "", 0);
            c.send('S');
            List<RawPgClient.Message> m = c.untilReady();
            assertEquals("12DCZ", RawPgClient.types(m), m.get(1).fields().toString());
            assertTrue(
                    m.get(2).text().endsWith(Integer.toString(TestCube.TRADES)),
                    m.get(2).text());
        }
    }

    /** An encoding name is read as PostgreSQL reads it, on its letters and digits: asyncpg sends {@code 'utf-8'}. */
    @Test
    void clientEncodingNamesAreReadOnTheirLettersAndDigits() throws IOException {
        for (String name : List.of("'utf-8'", "Unicode", "sql_ascii")) {
            try (RawPgClient c = new RawPgClient(server.pgAddress())) {
                c.startup(196_608, "user", "raw", "database", "numacube", "client_encoding", name);
                assertEquals('Z', c.untilReady().getLast().type(), name);
            }
        }
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.startup(196_608, "user", "raw", "database", "numacube", "client_encoding", "latin1");
            assertEquals("22023", c.untilReady().getFirst().fields().get('C'));
        }
    }

    @Test
    void aRowLimitedExecuteSuspendsThePortal() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.query("BEGIN");
            c.untilReady();
            c.send('P', "s1", "SELECT trade_id FROM trades ORDER BY trade_id LIMIT 5", (short) 0);
            c.send('B', "c1", "s1", (short) 0, (short) 0, (short) 1, (short) 1);
            c.send('E', "c1", 2);
            c.send('S');
            assertEquals("12DDsZ", RawPgClient.types(c.untilReady()));
            c.send('E', "c1", 2);
            c.send('E', "c1", 2);
            c.send('S');
            List<RawPgClient.Message> rest = c.untilReady();
            assertEquals("DDsDCZ", RawPgClient.types(rest));
            assertEquals("SELECT 1\0", rest.get(4).text());
            assertEquals(8, ByteBuffer.wrap(rest.get(3).body()).getInt(2), "binary int8, as Bind asked");
            c.query("COMMIT");
            c.untilReady();
            c.send('E', "c1", 0);
            c.send('S');
            assertEquals("34000", c.untilReady().getFirst().fields().get('C'), "portals close with the transaction");
        }
    }

    @Test
    void beyondTheConnectionLimitAClientIsToldTooManyClients() throws IOException {
        try (NumacubeServer one = NumacubeServer.start(
                        TestCube.shared(),
                        ServerOptions.defaults("test").withPorts(0, 0).withLimits(1 << 20, 1 << 20, 1));
                RawPgClient first = RawPgClient.connected(one.pgAddress());
                RawPgClient second = new RawPgClient(one.pgAddress())) {
            second.startup(196_608, "user", "raw");
            RawPgClient.Message e = second.read();
            assertEquals("53300", e.fields().get('C'));
            assertEquals("sorry, too many clients already", e.fields().get('M'));
            first.query("SELECT 1");
            assertEquals("TDCZ", RawPgClient.types(first.untilReady()));
        }
    }
}
