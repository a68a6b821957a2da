package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UPDATE ({@link Cube#update}, {@link TableUpdate}): the rows its WHERE keeps get their new values in one new version,
 * the others stay as they were; expressions read the old row and are cast to their column's type; NULL, DECIMAL,
 * DATE and text columns; a keyed table; and the errors, after which nothing changed.
 */
class CubeUpdateTest {

    private Cube cube;

    @BeforeEach
    void load() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512));
        TableStaging t = new TableStaging(
                TableSchema.parse("t", "id:long,desk:string,px:decimal(12,2),day:date,qty:double,n:long"));
        for (int i = 0; i < 2000; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 4));
            t.setLong(2, 100L * i + 5);
            t.setDate(3, 19_000 + i % 10);
            t.setDouble(4, i * 0.5);
            t.setLong(5, i);
            t.endRow();
        }
        cube.loadTable(t);
    }

    @AfterEach
    void close() {
        cube.close();
    }

    @Test
    void theRowsOfTheWhereGetTheirNewValuesInOneVersion() {
        long before = cube.version("t");
        String others = cube.query("SELECT COUNT(*), SUM(qty), SUM(n) FROM t WHERE desk <> 'D1'")
                .toString();
        WriteResult r =
                cube.update("UPDATE t SET qty = qty * 2, n = n + 1000000, desk = 'X' || desk WHERE desk = 'D1'");
        assertEquals(500, r.rows());
        assertEquals(before + 1, r.version());
        assertEquals(2000, cube.rowCount("t"));
        assertEquals(
                others,
                cube.query("SELECT COUNT(*), SUM(qty), SUM(n) FROM t WHERE desk <> 'XD1'")
                        .toString());
        QueryResult changed = cube.query("SELECT COUNT(*), SUM(qty), MIN(n) FROM t WHERE desk = 'XD1'");
        assertEquals(500, changed.getLong(0, 0));
        double qty = 0;
        for (int i = 1; i < 2000; i += 4) {
            qty += i * 0.5 * 2;
        }
        assertEquals(qty, changed.getDouble(0, 1), 0.0);
        assertEquals(1_000_001, changed.getLong(0, 2));
        assertEquals(0, cube.query("SELECT COUNT(*) FROM t WHERE desk = 'D1'").getLong(0, 0));
    }

    @Test
    void valuesAreCastToTheirColumnsTypeAndNullSetsNull() {
        cube.update(
                "UPDATE public.t AS x SET px = x.px / 3, day = DATE '2024-02-29', n = 7.6, qty = NULL WHERE id = 10");
        QueryResult r = cube.query("SELECT px, day, n, qty FROM t WHERE id = 10");
        assertEquals("3.35", r.getDecimal(0, 0).toPlainString());
        assertEquals("2024-02-29", r.getString(0, 1));
        assertEquals(8, r.getLong(0, 2));
        assertTrue(r.isNull(0, 3));
    }

    @Test
    void withoutWhereEveryRowChangesAndNoMatchChangesNothing() {
        assertEquals(2000, cube.update("UPDATE t SET n = 0").rows());
        assertEquals(0, cube.query("SELECT SUM(n) FROM t").getLong(0, 0));
        long v = cube.version("t");
        assertEquals(0, cube.update("UPDATE t SET n = 1 WHERE id < 0").rows());
        assertEquals(0, cube.query("SELECT SUM(n) FROM t").getLong(0, 0));
        assertTrue(cube.version("t") <= v + 1);
    }

    @Test
    void aSubqueryInTheWhereReadsTheTableAsItWasBefore() {
        WriteResult r = cube.update("UPDATE t SET n = -1 WHERE desk IN (SELECT desk FROM t WHERE id = 5)");
        assertEquals(500, r.rows());
        assertEquals(
                500,
                cube.query("SELECT COUNT(*) FROM t WHERE n = -1 AND desk = 'D1'")
                        .getLong(0, 0));
        // AVG(n) before this write: (0 + ... + 1999 - 499,500 of desk D1's rows - 500) / 2000 = 749.5, so the rows of
        // n in 0..749 not of D1: 750 - 188
        assertEquals(
                562,
                cube.update("UPDATE t SET n = 0 WHERE n < (SELECT AVG(n) FROM t) AND n >= 0")
                        .rows());
    }

    @Test
    void aKeyedTableKeepsOneRowPerKey() {
        cube.setKey("t", List.of("id"));
        assertEquals(1, cube.update("UPDATE t SET desk = 'K' WHERE id = 5").rows());
        assertEquals(2000, cube.rowCount("t"));
        assertEquals("K", cube.query("SELECT desk FROM t WHERE id = 5").getString(0, 0));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET id = 6 WHERE id = 5"));
        assertEquals("0A000", e.code());
        assertTrue(e.getMessage().contains("UPDATE of a key column is not supported: table=t key=id"), e.getMessage());
        assertEquals(2000, cube.rowCount("t"));
    }

    @Test
    void badStatementsNameTheirErrorAndChangeNothing() {
        String sums = cube.query("SELECT SUM(n), COUNT(DISTINCT desk) FROM t").toString();
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET nosuch = 1"));
        assertEquals("42703", e.code());
        assertEquals(14, e.position().orElseThrow().column());
        assertEquals(
                "42601",
                assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET n = 1, n = 2"))
                        .code());
        assertEquals(
                "42P01",
                assertThrows(NumacubeException.class, () -> cube.update("UPDATE nosuch SET n = 1"))
                        .code());
        e = assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET n = 1 WHERE nosuch > 1"));
        assertEquals("42703", e.code());
        assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET day = 'soon'"));
        // a qualified target is refused as PostgreSQL refuses it, not taken for its last name
        e = assertThrows(NumacubeException.class, () -> cube.update("UPDATE t SET x.n = 3"));
        assertEquals("42703", e.code());
        assertEquals(14, e.position().orElseThrow().column());
        assertEquals(
                sums, cube.query("SELECT SUM(n), COUNT(DISTINCT desk) FROM t").toString());
    }

    /**
     * SET takes what PostgreSQL's assignment cast takes (numbers among themselves, anything into text, a date into a
     * timestamp and back) and refuses, with 42804 at the expression, what only an explicit CAST converts: text into a
     * number, a condition into a number, a number into a BOOLEAN or DATE, a BOOLEAN into a number (found by the writes
     * campaign: {@code SET v = s}, {@code SET b = v}, {@code SET v = b} were applied where PostgreSQL 15 refuses them).
     */
    @Test
    void anExpressionWithoutAnAssignmentCastToItsColumnIsRefusedAsPostgreSqlRefusesIt() {
        TableStaging f = new TableStaging(TableSchema.parse("f", "id:long,ok:boolean,s:string"));
        f.setLong(0, 1);
        f.setBoolean(1, true);
        f.setString(2, "12");
        f.endRow();
        cube.loadTable(f);
        String before = cube.query("SELECT SUM(n), SUM(qty), MIN(day) FROM t").toString();
        for (String refused : List.of(
                "UPDATE t SET n = CAST(n AS VARCHAR)",
                "UPDATE t SET n = id > 5",
                "UPDATE t SET qty = desk || ''",
                "UPDATE t SET px = CAST(px AS VARCHAR)",
                "UPDATE t SET day = n",
                "UPDATE t SET day = CAST(day AS VARCHAR)",
                "UPDATE f SET ok = id",
                "UPDATE f SET id = ok",
                "UPDATE f SET id = s")) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> cube.update(refused), refused);
            assertEquals("42804", e.code(), refused + ": " + e.getMessage());
            assertEquals(refused.indexOf(" = ") + 4, e.position().orElseThrow().column(), refused);
        }
        assertEquals(
                before, cube.query("SELECT SUM(n), SUM(qty), MIN(day) FROM t").toString());
        assertEquals(
                2000,
                cube.update("UPDATE t SET desk = n, qty = px, px = qty, day = CAST(day AS TIMESTAMP)")
                        .rows());
        assertEquals(
                1,
                cube.update("UPDATE f SET s = ok, ok = id > 0, id = CAST(s AS BIGINT)")
                        .rows());
        QueryResult r = cube.query("SELECT s, ok, id FROM f");
        assertEquals("true", r.getString(0, 0));
        assertEquals(12, r.getLong(0, 2));
    }

    @Test
    void aFailedWriteAfterAChangeOfNoRowLeavesThePublishedTableIntact() {
        String before = cube.query("SELECT COUNT(*), SUM(n), SUM(px) FROM t").toString();
        for (TableWrite noRows : List.<TableWrite>of(
                new TableDelete("DELETE FROM t WHERE id = -1"), new TableUpdate("UPDATE t SET n = 0 WHERE id = -1"))) {
            assertThrows(
                    NumacubeException.class,
                    () -> cube.write(List.of(noRows, new TableUpdate("UPDATE t SET n = 1e300 WHERE id = 1"))));
            assertEquals(
                    before,
                    cube.query("SELECT COUNT(*), SUM(n), SUM(px) FROM t").toString());
        }
        assertEquals(1, cube.update("UPDATE t SET n = 5 WHERE id = 1").rows());
    }

    @Test
    void anUpdateOfAKeyedTableKeepsRowsLoadedWithARepeatedKey() {
        // n is the key: rows loaded before setKey are not checked, so n = i % 1000 repeats every value twice
        cube.update("UPDATE t SET n = id % 1000");
        cube.setKey("t", List.of("n"));
        WriteResult r = cube.update("UPDATE t SET desk = 'K' WHERE n = 7");
        assertEquals(2, r.rows());
        assertEquals(2000, cube.rowCount("t"), "no row of the key's two is dropped");
        assertEquals(2, cube.query("SELECT COUNT(*) FROM t WHERE desk = 'K'").getLong(0, 0));
    }
}
