package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.result.QueryResult;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.query.QueryAdmission;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.util.PSQLException;

/** The PostgreSQL front end through pgjdbc 42.7.14, every answer compared with the engine's own for the same SQL. */
class PgJdbcTest {

    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        cube = TestCube.shared();
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect(NumacubeServer s, String options) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + s.pgAddress().getPort() + "/numacube?user=test" + options);
    }

    @Test
    void aStatementAnswersWhatTheEngineAnswers() throws SQLException {
        String sql = "SELECT desk, SUM(pnl), COUNT(*), MIN(trade_date) FROM trades GROUP BY desk ORDER BY desk";
        QueryResult expected = cube.query(sql);
        try (Connection c = connect(server, "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int r = 0;
            while (rs.next()) {
                assertEquals(expected.getString(r, 0), rs.getString(1));
                assertEquals(expected.getDouble(r, 1), rs.getDouble(2), 0.0);
                assertEquals(expected.getLong(r, 2), rs.getObject(3));
                assertEquals(Date.valueOf(expected.getString(r, 3)), rs.getObject(4));
                r++;
            }
            assertEquals(expected.rowCount(), r);
        }
    }

    @Test
    void everyColumnTypeHasItsJdbcTypeAndValue() throws SQLException {
        try (Connection c = connect(server, "")) {
            checkKinds(c);
        }
    }

    /**
     * A DECIMAL column read as it is keeps its declared numeric(15,2), as a key and through a derived table; a SUM, MIN
     * or product of it is plain numeric (typmod -1). Expected: pgjdbc 42.7.14 against PostgreSQL 15 over a numeric(15,2)
     * column (precision and scale 15, 2 and 0, 0).
     */
    @Test
    void aDecimalColumnHasItsDeclaredPrecisionAndAComputedOneNone() throws SQLException {
        try (Connection c = connect(server, "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT price, SUM(price), MIN(price), price * 2, MAX(p)"
                                + " FROM kinds JOIN (SELECT id AS i, price AS p FROM kinds) d ON kinds.id = d.i GROUP BY price")) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> got = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                got.add(md.getColumnTypeName(i) + "(" + md.getPrecision(i) + "," + md.getScale(i) + ")");
            }
            assertEquals(List.of("numeric(15,2)", "numeric(0,0)", "numeric(0,0)", "numeric(0,0)", "numeric(0,0)"), got);
        }
        try (Connection c = connect(server, "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT p FROM (SELECT price AS p FROM kinds) d")) {
            assertEquals(15, rs.getMetaData().getPrecision(1));
            assertEquals(2, rs.getMetaData().getScale(1));
        }
    }

    @Test
    void binaryResultsOfANamedStatementReadAsTextOnesDo() throws SQLException {
        try (Connection c = connect(server, "&prepareThreshold=1&binaryTransfer=true")) {
            for (int i = 0; i < 3; i++) {
                checkKinds(c);
            }
        }
    }

    private static void checkKinds(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM kinds WHERE id >= ? ORDER BY id")) {
            ps.setInt(1, 0);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(
                        List.of(
                                Types.BIGINT,
                                Types.VARCHAR,
                                Types.NUMERIC,
                                Types.TIMESTAMP,
                                Types.DATE,
                                Types.BIT,
                                Types.DOUBLE),
                        types(md));
                assertEquals(2, md.getScale(3));
                assertEquals(15, md.getPrecision(3));
                assertTrue(rs.next());
                assertEquals(0L, rs.getObject(1));
                assertEquals("n0", rs.getObject(2));
                assertEquals(new BigDecimal("0.01"), rs.getObject(3));
                assertEquals(Timestamp.valueOf("2023-11-14 22:13:20"), rs.getObject(4));
                assertEquals(Date.valueOf("2024-10-04"), rs.getObject(5));
                assertEquals(Boolean.TRUE, rs.getObject(6));
                assertEquals(0.0, rs.getObject(7));
                assertTrue(rs.next());
                assertEquals(new BigDecimal("10.51"), rs.getBigDecimal(3));
                assertEquals(Timestamp.valueOf("2023-11-14 22:13:21.25"), rs.getTimestamp(4));
                assertEquals(1.5e20, rs.getDouble(7), 0.0);
                assertTrue(rs.next());
                for (int col = 3; col <= 7; col++) {
                    assertNull(rs.getObject(col), "column " + col);
                }
            }
        }
    }

    private static List<Integer> types(ResultSetMetaData md) throws SQLException {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnType(i));
        }
        return out;
    }

    @Test
    void preparedStatementParametersOfSeveralTypesGetTheEnginesAnswer() throws SQLException {
        String sql = "SELECT COUNT(*), SUM(pnl) FROM trades WHERE desk = ? AND pnl > ? AND trade_date >= ?"
                + " AND trade_id > ?";
        QueryResult expected = cube.query("SELECT COUNT(*), SUM(pnl) FROM trades WHERE desk = 'DESK-01' AND pnl > 1.5"
                + " AND trade_date >= DATE '2025-01-03' AND trade_id > 10");
        try (Connection c = connect(server, "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < 7; i++) {
                ps.setString(1, "DESK-01");
                ps.setDouble(2, 1.5);
                ps.setDate(3, Date.valueOf("2025-01-03"));
                ps.setLong(4, 10);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(expected.getLong(0, 0), rs.getLong(1), "run " + i);
                    assertEquals(expected.getDouble(0, 1), rs.getDouble(2), 0.0, "run " + i);
                }
            }
        }
    }

    @Test
    void decimalTimestampBooleanAndLocalDateParameters() throws SQLException {
        try (Connection c = connect(server, "&prepareThreshold=1");
                PreparedStatement ps = c.prepareStatement(
                        "SELECT id FROM kinds WHERE price >= ? AND ts >= ? AND flag = ? AND d <= ? AND id < ?")) {
            for (int i = 0; i < 2; i++) {
                ps.setBigDecimal(1, new BigDecimal("0.01"));
                ps.setTimestamp(2, Timestamp.valueOf("2023-11-14 22:13:20"));
                ps.setBoolean(3, false);
                ps.setObject(4, LocalDate.of(2024, 10, 5));
                ps.setInt(5, 5);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(1L, rs.getLong(1));
                    assertTrue(!rs.next());
                }
            }
        }
    }

    /**
     * A numeric parameter's value sets the type of {@code id * ?} (2 a bigint, 1.5 a numeric of scale 1, 2.25 of
     * scale 2): pgjdbc, once it prepared the statement on the server, decodes later rows with the types it was first
     * told, which read the numeric 3.0 as the bigint 562949953421315 and rounded 4.50 to 4.5 by the old scale.
     */
    /**
     * {@code getParameterMetaData} and {@code getMetaData} before any value is set: pgjdbc describes the statement with
     * its parameters unspecified, and gets their types as PostgreSQL infers them from the columns they meet.
     */
    @Test
    void metadataBeforeExecuteTellsTheInferredParameterTypes() throws SQLException {
        try (Connection c = connect(server, "");
                PreparedStatement ps = c.prepareStatement(
                        "SELECT desk, pnl * ? AS scaled FROM trades WHERE trade_id > ? AND trade_date >= ?")) {
            java.sql.ParameterMetaData params = ps.getParameterMetaData();
            assertEquals(3, params.getParameterCount());
            assertEquals(java.sql.Types.DOUBLE, params.getParameterType(1));
            assertEquals(java.sql.Types.BIGINT, params.getParameterType(2));
            assertEquals(java.sql.Types.DATE, params.getParameterType(3));
            java.sql.ResultSetMetaData columns = ps.getMetaData();
            assertEquals(java.sql.Types.DOUBLE, columns.getColumnType(2));
            ps.setDouble(1, 2.0);
            ps.setLong(2, 19_990L);
            ps.setObject(3, java.time.LocalDate.of(2020, 1, 1));
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                }
            }
            assertEquals(
                    cube.query("SELECT COUNT(*) FROM trades WHERE trade_id > 19990 AND trade_date >= DATE"
                                    + " '2020-01-01'")
                            .getLong(0, 0),
                    rows);
        }
    }

    @Test
    void aParameterThatChangesTheResultTypeIsNeverDecodedAsTheOldType() throws SQLException {
        String[] factors = {"1", "2", "1.5", "2.25", "3", "0.125", "4"};
        for (String options : List.of("&prepareThreshold=1", "&prepareThreshold=1&binaryTransfer=false")) {
            try (Connection c = connect(server, options);
                    PreparedStatement ps = c.prepareStatement("SELECT id * ? AS x FROM kinds WHERE id = 2")) {
                for (String factor : factors) {
                    ps.setBigDecimal(1, new BigDecimal(factor));
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(
                                0,
                                new BigDecimal(factor).multiply(BigDecimal.TWO).compareTo(rs.getBigDecimal(1)),
                                options + " factor " + factor + " gave " + rs.getBigDecimal(1));
                        assertEquals(
                                new BigDecimal(factor).scale(),
                                rs.getBigDecimal(1).scale(),
                                options + factor);
                    }
                }
            }
        }
    }

    @Test
    void aStringParameterCannotBecomeSql() throws SQLException {
        try (Connection c = connect(server, "");
                PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM trades WHERE desk = ?")) {
            ps.setString(1, "x' OR '1'='1");
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(0L, rs.getLong(1));
            }
            ps.setString(1, "DESK-01");
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(
                        cube.query("SELECT COUNT(*) FROM trades WHERE desk = 'DESK-01'")
                                .getLong(0, 0),
                        rs.getLong(1));
            }
        }
    }

    @Test
    void anErrorHasItsSqlStateAndPositionInTheClientsText() throws SQLException {
        try (Connection c = connect(server, "");
                Statement s = c.createStatement()) {
            String sql = "SELECT desk,\n       nosuch FROM trades";
            PSQLException e = assertThrows(PSQLException.class, () -> s.executeQuery(sql));
            assertEquals("42703", e.getSQLState());
            assertEquals(sql.indexOf("nosuch") + 1, e.getServerErrorMessage().getPosition());
            assertEquals(
                    "42601",
                    assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO trades (desk) VALUES (1, 2)"))
                            .getSQLState());
            assertEquals(
                    "0A000",
                    assertThrows(
                                    SQLException.class,
                                    () -> s.executeUpdate(
                                            "MERGE INTO trades USING fx ON TRUE WHEN MATCHED THEN DELETE"))
                            .getSQLState());
        }
        try (Connection c = connect(server, "");
                PreparedStatement ps = c.prepareStatement("SELECT desk FROM trades WHERE desk = ? AND nosuch = 1")) {
            ps.setString(1, "a much longer value than the marker");
            PSQLException e = assertThrows(PSQLException.class, ps::executeQuery);
            assertEquals("42703", e.getSQLState());
            assertEquals(
                    "SELECT desk FROM trades WHERE desk = $1 AND nosuch = 1".indexOf("nosuch") + 1,
                    e.getServerErrorMessage().getPosition(),
                    "in the text pgjdbc sent ($1 for ?), not the one with the value in place");
        }
    }

    @Test
    void metadataListsTablesAndColumns() throws SQLException {
        try (Connection c = connect(server, "")) {
            DatabaseMetaData md = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                    assertEquals("public", rs.getString("TABLE_SCHEM"));
                    assertEquals("TABLE", rs.getString("TABLE_TYPE"));
                }
            }
            assertEquals(cube.tables(), tables);
            try (ResultSet rs = md.getTables(null, null, "%", new String[] {"VIEW"})) {
                assertTrue(!rs.next());
            }
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "public", "kinds", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE") + ":"
                            + rs.getString("TYPE_NAME"));
                    if (rs.getString("COLUMN_NAME").equals("price")) {
                        assertEquals(15, rs.getInt("COLUMN_SIZE"));
                        assertEquals(2, rs.getInt("DECIMAL_DIGITS"));
                    }
                }
            }
            assertEquals(
                    List.of(
                            "id:-5:int8",
                            "name:12:text",
                            "price:2:numeric",
                            "ts:93:timestamp",
                            "d:91:date",
                            "flag:-7:bool",
                            "x:8:float8"),
                    columns);
            assertEquals("16.0 (numacube test)", md.getDatabaseProductVersion());
        }
    }

    @Test
    void informationSchemaColumnsByTableNameAsToolsAskIt() throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Connection c = connect(server, "");
                PreparedStatement ps = c.prepareStatement("SELECT column_name, data_type, udt_name, ordinal_position"
                        + " FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?"
                        + " ORDER BY ordinal_position")) {
            ps.setString(1, "kinds");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1) + ":" + rs.getString(2) + ":" + rs.getString(3) + ":" + rs.getInt(4));
                }
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM public.kinds")) {
                rs.next();
                assertEquals(3, rs.getLong(1));
            }
        }
        assertEquals(
                List.of(
                        "id:bigint:int8:1",
                        "name:text:text:2",
                        "price:numeric:numeric:3",
                        "ts:timestamp without time zone:timestamp:4",
                        "d:date:date:5",
                        "flag:boolean:bool:6",
                        "x:double precision:float8:7"),
                columns,
                "udt_name as getColumns' TYPE_NAME (metadataListsTablesAndColumns)");
    }

    @Test
    void autocommitOffSendsBeginAndCommitAndTracksTheTransaction() throws SQLException {
        try (Connection c = connect(server, "");
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            BaseConnection base = c.unwrap(BaseConnection.class);
            s.executeQuery("SELECT COUNT(*) FROM trades").close();
            assertEquals(TransactionState.OPEN, base.getTransactionState());
            c.commit();
            assertEquals(TransactionState.IDLE, base.getTransactionState());
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT nosuch FROM trades"));
            assertEquals(TransactionState.FAILED, base.getTransactionState());
            assertEquals(
                    "25P02",
                    assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM trades"))
                            .getSQLState());
            c.rollback();
            assertEquals(TransactionState.IDLE, base.getTransactionState());
            s.executeQuery("SELECT COUNT(*) FROM trades").close();
            c.commit();
        }
    }

    @Test
    void maxRowsAndFetchSizePageThroughTheRows() throws SQLException {
        QueryResult expected = cube.query("SELECT trade_id FROM trades ORDER BY trade_id LIMIT 100");
        try (Connection c = connect(server, "");
                Statement s = c.createStatement()) {
            s.setMaxRows(25);
            try (ResultSet rs = s.executeQuery("SELECT trade_id FROM trades ORDER BY trade_id LIMIT 100")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(25, n);
            }
            c.setAutoCommit(false);
            s.setMaxRows(0);
            s.setFetchSize(10);
            try (ResultSet rs = s.executeQuery("SELECT trade_id FROM trades ORDER BY trade_id LIMIT 100")) {
                int n = 0;
                while (rs.next()) {
                    assertEquals(expected.getLong(n, 0), rs.getLong(1));
                    n++;
                }
                assertEquals(100, n);
            }
            c.commit();
        }
    }

    /**
     * pgjdbc with autocommit off and a fetch size reads a big result in pieces: one Execute of the named portal per
     * page, each page the fetch size of DataRows then PortalSuspended, as PostgreSQL 15 answers them (a page that ends
     * the rows is suspended too, and the Execute after it completes with {@code SELECT 0}), and all rows equal the
     * engine's.
     */
    @Test
    void aFetchSizeReadsTheRowsInPiecesOfThatSize() throws Exception {
        String sql = "SELECT trade_id, desk, pnl FROM trades ORDER BY trade_id";
        QueryResult expected = cube.query(sql);
        int fetch = 1_000;
        assertEquals(0, expected.rowCount() % fetch, "a last page that ends the rows exactly");
        try (WireTap tap = new WireTap(server.pgAddress());
                Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + tap.port() + "/numacube?user=test&sslmode=disable");
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.setFetchSize(fetch);
            tap.frontend.clear();
            tap.backend.clear();
            int n = 0;
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    assertEquals(expected.getLong(n, 0), rs.getLong(1));
                    assertEquals(expected.getString(n, 1), rs.getString(2));
                    assertEquals(expected.getDouble(n, 2), rs.getDouble(3), 0.0);
                    n++;
                }
            }
            c.commit();
            assertEquals(expected.rowCount(), n);
            List<Integer> pages = new ArrayList<>();
            int rows = 0;
            for (String m : tap.backend) {
                if (m.equals("D")) {
                    rows++;
                } else if (m.equals("s")) {
                    pages.add(rows);
                    rows = 0;
                }
            }
            assertEquals(expected.rowCount() / fetch, pages.size(), "PortalSuspended messages: " + pages);
            assertTrue(pages.stream().allMatch(p -> p == fetch), "rows per page: " + pages);
            assertEquals(0, rows, "rows after the last PortalSuspended");
            assertTrue(tap.backend.contains("C:SELECT 0"), "the last Execute's completion: " + tap.backend);
            long executes = tap.frontend.stream().filter(t -> t == 'E').count();
            assertTrue(executes >= pages.size() + 1, "Executes: " + executes);
        }
    }

    @Test
    void sessionStatementsAndConstantSelectsAreAnswered() throws SQLException {
        try (Connection c = connect(server, "");
                Statement s = c.createStatement()) {
            assertEquals("16.0 (numacube test)", one(s, "SHOW server_version"));
            assertEquals("ISO, MDY", one(s, "SHOW DateStyle"));
            assertEquals("on", one(s, "SHOW standard_conforming_strings"));
            s.execute("SET statement_timeout = '5s'");
            assertEquals("5s", one(s, "SHOW statement_timeout"));
            s.execute("SET application_name TO 'numacube test'");
            assertEquals("numacube test", one(s, "SELECT current_setting('application_name')"));
            assertTrue(one(s, "SELECT version()").startsWith("PostgreSQL 16.0 (numacube test)"));
            assertEquals("numacube", one(s, "SELECT current_database()"));
            assertEquals("public", one(s, "select current_schema()"));
            assertEquals("test", one(s, "SELECT current_user"));
            assertEquals("1", one(s, "SELECT 1"));
            assertEquals(
                    "22023",
                    assertThrows(SQLException.class, () -> s.execute("SET client_encoding = 'LATIN1'"))
                            .getSQLState());
            assertEquals("public", c.getSchema());
            assertTrue(c.isValid(5));
        }
    }

    private static String one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void aCancelRequestAbandonsTheQueryAndAStatementTimeoutToo() throws Exception {
        try (NumacubeServer one = NumacubeServer.start(
                        cube, ServerOptions.defaults("test").withPorts(0, 0).withAdmission(1, 2, Duration.ZERO));
                Connection c = connect(one, "");
                Statement s = c.createStatement()) {
            QueryAdmission admission = one.queries().admission();
            try (QueryAdmission.Permit held = admission.admit(Long.MAX_VALUE)) {
                CompletableFuture<SQLException> waiting = CompletableFuture.supplyAsync(() -> {
                    try {
                        s.executeQuery("SELECT COUNT(*) FROM trades").close();
                        return null;
                    } catch (SQLException e) {
                        return e;
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (admission.queued() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                s.cancel();
                SQLException e = waiting.get(20, TimeUnit.SECONDS);
                assertEquals("57014", e.getSQLState());
                assertTrue(e.getMessage().contains("canceling statement due to user request"), e.getMessage());
                s.execute("SET statement_timeout = 100");
                assertEquals(
                        "57014",
                        assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM " + "trades"))
                                .getSQLState());
            }
            assertEquals(c.unwrap(PGConnection.class).getBackendPID() > 0, true);
        }
    }

    /** Each row of {@code rs} as its values joined by |, NULL as NULL (as PostgreSQL's rows are written below). */
    private static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            ResultSetMetaData m = rs.getMetaData();
            while (rs.next()) {
                List<String> cells = new ArrayList<>();
                for (int i = 1; i <= m.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    cells.add(v == null ? "NULL" : v.toString());
                }
                out.add(String.join("|", cells));
            }
        }
        return out;
    }

    /**
     * getPrimaryKeys and getIndexInfo of a keyed table, against PostgreSQL 15's rows for {@code CREATE TABLE t (id
     * bigint PRIMARY KEY, desk text)} with t's ten rows, analyzed (pgjdbc 42.7.14 over both): the same, but that the
     * key's index is numacube's, not a btree, so its ASC_OR_DESC is NULL, and has no pages.
     */
    @Test
    void primaryKeysAndIndexInfoOfAKeyedTableAreItsKeysAsPostgresqlGivesThem() throws SQLException, IOException {
        try (Cube keyed = TestCube.tenDesks();
                NumacubeServer s = NumacubeServer.start(
                        keyed, ServerOptions.defaults("test").withPorts(0, 0));
                Connection c = connect(s, "")) {
            DatabaseMetaData md = c.getMetaData();
            assertEquals(List.of(), rows(md.getPrimaryKeys(null, null, "t")), "no key yet");
            assertEquals(List.of(), rows(md.getIndexInfo(null, null, "t", false, false)), "no index yet");
            keyed.setKey("t", List.of("id"));
            String pk = "numacube|public|t|id|1|t_pkey";
            assertEquals(List.of(pk), rows(md.getPrimaryKeys(null, null, "t")));
            assertEquals(List.of(pk), rows(md.getPrimaryKeys(null, "public", "t")));
            assertEquals(List.of(), rows(md.getPrimaryKeys(null, "public", "T")), "names are exact");
            assertEquals(List.of(), rows(md.getPrimaryKeys(null, "other", "t")));
            String postgresql = "numacube|public|t|false|NULL|t_pkey|3|1|id|A|10.0|2|NULL|NULL";
            String numacube = postgresql.replace("|A|10.0|2|", "|NULL|10.0|0|");
            assertEquals(List.of(numacube), rows(md.getIndexInfo(null, null, "t", false, false)));
            assertEquals(List.of(numacube), rows(md.getIndexInfo(null, "public", "t", true, true)));
            keyed.setKey("t", List.of("desk", "id"));
            assertEquals(
                    List.of("numacube|public|t|desk|1|t_pkey", "numacube|public|t|id|2|t_pkey"),
                    rows(md.getPrimaryKeys(null, null, "t")));
            assertThrows(
                    SQLException.class,
                    () -> rows(md.getPrimaryKeys(null, null, "pg_class")),
                    "PostgreSQL's own catalogs have keys numacube does not model");
        }
    }

    /**
     * PostgreSQL 15's getTypeInfo rows (pgjdbc 42.7.14) for the types numacube has and the serial types pgjdbc adds
     * beside the integers, in PostgreSQL's order.
     */
    private static final List<String> POSTGRESQL_TYPE_INFO = List.of(
            "bool|-7|0|'|'|NULL|1|false|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "int8|-5|0|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|0|NULL|NULL|10",
            "bigserial|-5|0|NULL|NULL|NULL|1|false|3|false|false|true|NULL|0|0|NULL|NULL|10",
            "oid|-5|0|NULL|NULL|NULL|1|false|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "bytea|-2|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "char|1|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "bpchar|1|10485760|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "numeric|2|1000|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|1000|NULL|NULL|10",
            "int4|4|0|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|0|NULL|NULL|10",
            "serial|4|0|NULL|NULL|NULL|1|false|3|false|false|true|NULL|0|0|NULL|NULL|10",
            "int2|5|0|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|0|NULL|NULL|10",
            "smallserial|5|0|NULL|NULL|NULL|1|false|3|false|false|true|NULL|0|0|NULL|NULL|10",
            "float4|7|0|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|0|NULL|NULL|10",
            "float8|8|0|NULL|NULL|NULL|1|false|3|false|false|false|NULL|0|0|NULL|NULL|10",
            "name|12|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "text|12|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "varchar|12|10485760|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "date|91|0|'|'|NULL|1|false|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "timestamp|93|6|'|'|NULL|1|false|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "timestamptz|93|6|'|'|NULL|1|false|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "regproc|1111|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "unknown|1111|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10",
            "_text|2003|0|'|'|NULL|1|true|3|true|false|false|NULL|0|0|NULL|NULL|10");

    /**
     * getTypeInfo lists numacube's types (pg_type has no other, as TypeCatalog models it), each row as PostgreSQL 15
     * gives it for that type, in PostgreSQL's order.
     */
    @Test
    void typeInfoListsNumacubesTypesAsPostgresqlDescribesThem() throws SQLException {
        try (Connection c = connect(server, "")) {
            List<String> rows = rows(c.getMetaData().getTypeInfo());
            List<String> names =
                    rows.stream().map(r -> r.substring(0, r.indexOf('|'))).toList();
            assertEquals(
                    POSTGRESQL_TYPE_INFO.stream()
                            .filter(r -> names.contains(r.substring(0, r.indexOf('|'))))
                            .toList(),
                    rows);
            assertEquals(POSTGRESQL_TYPE_INFO.size(), rows.size(), names::toString);
        }
    }
}
