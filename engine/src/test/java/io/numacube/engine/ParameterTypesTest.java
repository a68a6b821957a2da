package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Cube#parameterTypes}: a parameter left untyped takes the type of the operand it meets first, or of its cast,
 * as PostgreSQL infers a {@code $1} of type unknown; one that meets none is absent; the statement is bound, not run.
 */
class ParameterTypesTest {

    private static Cube cube;

    @BeforeAll
    static void load() {
        cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(1));
        TableStaging t = new TableStaging(
                TableSchema.parse("t", "id:long,desk:string,px:decimal(12,2),day:date,qty:double,ok:boolean"));
        for (int i = 0; i < 100; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 4));
            t.setLong(2, 100L * i + 5);
            t.setDate(3, 19_000 + i % 10);
            t.setDouble(4, i * 0.5);
            t.setBoolean(5, i % 2 == 0);
            t.endRow();
        }
        cube.loadTable(t);
    }

    @AfterAll
    static void close() {
        cube.close();
    }

    private static String p(int n) {
        return Cube.parameterMarker(n);
    }

    private static Map<Integer, ParameterType> types(String sql) {
        return cube.parameterTypes(sql);
    }

    private static ParameterType of(ColumnType type) {
        return new ParameterType(type, 0);
    }

    @Test
    void aParameterTakesTheTypeOfTheColumnItIsComparedWith() {
        assertEquals(
                Map.of(1, of(ColumnType.LONG), 2, of(ColumnType.STRING), 3, new ParameterType(ColumnType.LONG, 2)),
                types("SELECT COUNT(*) FROM t WHERE id > " + p(1) + " AND desk = " + p(2) + " AND px <= " + p(3)));
        assertEquals(
                Map.of(1, of(ColumnType.DATE), 2, of(ColumnType.DOUBLE), 3, of(ColumnType.DOUBLE)),
                types("SELECT desk FROM t WHERE " + p(1) + " <= day AND qty BETWEEN " + p(2) + " AND " + p(3)));
        assertEquals(
                Map.of(1, of(ColumnType.LONG), 2, of(ColumnType.LONG), 3, of(ColumnType.BOOLEAN)),
                types("SELECT id FROM t WHERE id IN (" + p(1) + ", " + p(2) + ") AND ok = " + p(3)));
    }

    @Test
    void arithmeticCoalesceAndCastsTellTheType() {
        assertEquals(
                Map.of(1, of(ColumnType.DOUBLE), 2, of(ColumnType.LONG), 3, of(ColumnType.STRING)),
                types("SELECT qty * " + p(1) + ", " + p(2) + " + 1, COALESCE(desk, " + p(3) + ") FROM t"));
        assertEquals(
                Map.of(1, of(ColumnType.LONG), 2, of(ColumnType.DATE), 3, new ParameterType(ColumnType.LONG, 4)),
                types("SELECT CAST(" + p(1) + " AS INTEGER), CAST(" + p(2) + " AS DATE), CAST(" + p(3)
                        + " AS DECIMAL(10,4))"
                        + " FROM t"));
    }

    @Test
    void aParameterThatMeetsNoTypedOperandIsAbsent() {
        assertEquals(Map.of(2, of(ColumnType.LONG)), types("SELECT " + p(1) + ", id FROM t WHERE id = " + p(2)));
        assertEquals(Map.of(), types("SELECT COUNT(*) FROM t WHERE desk LIKE " + p(1)));
    }

    @Test
    void subqueriesUpdatesAndDeletesAreBoundToo() {
        assertEquals(
                Map.of(1, of(ColumnType.DOUBLE)),
                types("SELECT COUNT(*) FROM t WHERE id IN (SELECT id FROM t WHERE qty > " + p(1) + ")"));
        assertEquals(
                Map.of(1, new ParameterType(ColumnType.LONG, 2), 2, of(ColumnType.STRING), 3, of(ColumnType.DATE)),
                types("UPDATE t SET px = " + p(1) + ", desk = " + p(2) + " WHERE day = " + p(3)));
        assertEquals(Map.of(1, of(ColumnType.LONG)), types("DELETE FROM t WHERE id = " + p(1)));
        assertEquals(100, cube.rowCount("t"), "binding an UPDATE or DELETE changed the table");
    }

    @Test
    void aStatementThatDoesNotBindFailsAsAQueryWould() {
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> types("SELECT nosuch FROM t WHERE id = " + p(1)));
        assertEquals("42703", e.code());
    }

    /**
     * A CASE result takes the type of the other results also where its condition met a parameter: the comparison with
     * the parameter (a NULL while types are inferred) folded to unknown and its branch was dropped before the result
     * met the others, so {@code CASE WHEN id > $1 THEN $2 ELSE id END} left $2 text, and psycopg's {@code '99'} made
     * it fail 42804 (PostgreSQL: bigint).
     */
    @Test
    void aCaseResultTakesTheOtherResultsTypeBesideAConditionOfAParameter() {
        assertEquals(
                Map.of(1, of(ColumnType.LONG), 2, of(ColumnType.LONG)),
                types("SELECT CASE WHEN id > " + p(1) + " THEN " + p(2) + " ELSE id END FROM t"));
        assertEquals(
                Map.of(1, of(ColumnType.STRING), 2, new ParameterType(ColumnType.LONG, 2)),
                types("SELECT CASE WHEN desk = " + p(1) + " THEN px WHEN id > 3 THEN " + p(2) + " END FROM t"));
        assertEquals(
                Map.of(1, of(ColumnType.LONG), 2, of(ColumnType.LONG)),
                types("UPDATE t SET id = CASE WHEN id > " + p(1) + " THEN " + p(2) + " ELSE id END"));
    }

    /** A parameter tested BETWEEN two columns takes the lower bound's type, as PostgreSQL's {@code $1 >= lo} does. */
    @Test
    void aParameterBetweenTwoColumnsTakesTheLowerBoundsType() {
        assertEquals(
                Map.of(1, of(ColumnType.LONG)), types("SELECT COUNT(*) FROM t WHERE " + p(1) + " BETWEEN id AND 50"));
        assertEquals(
                Map.of(1, of(ColumnType.DATE)),
                types("SELECT COUNT(*) FROM t WHERE " + p(1) + " NOT BETWEEN day AND day"));
    }

    /**
     * Binding runs the statement's uncorrelated subqueries, so inferring its parameters' types is stopped by a
     * cancellation (a server's deadline) as a query is; without one, the same statement is inferred.
     */
    @Test
    void aCancelledInferenceStopsWith57014() {
        String sql =
                "SELECT COUNT(*) FROM t WHERE id > " + p(1) + " AND qty = (SELECT MAX(qty) FROM t WHERE desk = 'D1')";
        assertEquals(
                Map.of(1, of(ColumnType.LONG)), cube.parameterTypes(sql, io.numacube.engine.result.Cancellation.NONE));
        io.numacube.engine.result.Cancellation stopped = new io.numacube.engine.result.Cancellation();
        stopped.cancel("deadline passed");
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.parameterTypes(sql, stopped));
        assertEquals("57014", e.code());
    }
}
