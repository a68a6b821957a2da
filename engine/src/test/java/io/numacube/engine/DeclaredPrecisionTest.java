package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CAST to DECIMAL(p, s) declares its precision in a result, as PostgreSQL's typmod of {@code x::numeric(6,2)}; a set
 * operation keeps a declared precision where both sides declare the same precision and scale, as PostgreSQL keeps their
 * common typmod. Expected: PostgreSQL 15's RowDescription for the same queries over numeric(6,2), numeric(6,2),
 * numeric(8,2), numeric(10,0) and bigint columns; where the sides differ PostgreSQL's is plain numeric.
 */
class DeclaredPrecisionTest {

    private Cube cube;

    @BeforeEach
    void load() {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(
                TableSchema.parse("u", "id:long,a:decimal(6,2),b:decimal(6,2),c:decimal(8,2),d0:decimal(10,0)"));
        t.setLong(0, 1);
        t.setLong(1, 150);
        t.setLong(2, 225);
        t.setLong(3, 300);
        t.setLong(4, 4);
        t.endRow();
        cube.loadTable(t);
    }

    @AfterEach
    void close() {
        cube.close();
    }

    @Test
    void aCastDeclaresItsPrecisionAndASetOperationKeepsACommonOne() {
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("SELECT a FROM u UNION SELECT b FROM u", 6);
        expected.put("SELECT a FROM u INTERSECT SELECT b FROM u", 6);
        expected.put("SELECT a FROM u UNION SELECT b FROM u UNION SELECT a FROM u", 6);
        expected.put("SELECT d0 FROM u UNION SELECT d0 FROM u", 10);
        expected.put("SELECT CAST(id AS DECIMAL(6,2)) FROM u", 6);
        expected.put("SELECT id::numeric(6,2) FROM u", 6);
        expected.put("SELECT CAST(id AS NUMERIC(10,0)) FROM u", 10);
        expected.put("SELECT CAST(SUM(a) AS DECIMAL(9,2)) FROM u", 9);
        expected.put("SELECT x FROM (SELECT CAST(id AS DECIMAL(7,1)) AS x FROM u) s", 7);
        expected.put("SELECT CAST(a AS DECIMAL(8,2)) FROM u UNION SELECT c FROM u", 8);
        Map<String, Integer> got = new LinkedHashMap<>();
        for (String sql : expected.keySet()) {
            QueryResult r = cube.query(sql);
            got.put(sql, r.precision(0));
        }
        assertEquals(expected, got);
    }

    /**
     * A CAST of a literal declares its precision as a CAST of a column does (PostgreSQL 15's {@code \\gdesc}:
     * numeric(6,0), numeric(6,2), and numeric(6,2) for the UNION); it was folded to a value without one (BIGINT for
     * DECIMAL(6,0), plain numeric otherwise).
     */
    @Test
    void aCastOfALiteralDeclaresItsPrecision() {
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("SELECT CAST(5 AS DECIMAL(6,0)) FROM u", 6);
        expected.put("SELECT CAST(1.5 AS DECIMAL(6,2)) FROM u", 6);
        expected.put("SELECT CAST(a AS DECIMAL(6,2)) FROM u UNION SELECT CAST(1 AS DECIMAL(6,2)) FROM u", 6);
        Map<String, Integer> got = new LinkedHashMap<>();
        for (String sql : expected.keySet()) {
            QueryResult r = cube.query(sql);
            got.put(sql, r.precision(0));
            assertEquals(
                    io.numacube.engine.schema.ColumnType.DECIMAL,
                    r.columnTypes().get(0),
                    sql);
        }
        assertEquals(expected, got);
    }

    /**
     * A set operation whose sides declare different precisions or scales (or one side none: a BIGINT, a NULL, a
     * computed DECIMAL) is plain numeric in PostgreSQL 15's RowDescription (typmod -1, {@code \\gdesc} says {@code
     * numeric}), whatever is around it: ORDER BY, LIMIT, a derived table. It said DECIMAL(18,s) (the set operation's
     * rows read back as a table).
     */
    @Test
    void aSetOperationOfDifferentDeclaredPrecisionsIsPlainNumeric() {
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("SELECT a FROM u UNION SELECT c FROM u", 0);
        expected.put("SELECT a FROM u UNION ALL SELECT c FROM u", 0);
        expected.put("SELECT a FROM u INTERSECT SELECT c FROM u", 0);
        expected.put("SELECT a FROM u EXCEPT SELECT d0 FROM u", 0);
        expected.put("SELECT a FROM u UNION SELECT c FROM u ORDER BY 1", 0);
        expected.put("SELECT a FROM u UNION SELECT c FROM u ORDER BY 1 LIMIT 1", 0);
        expected.put("SELECT * FROM (SELECT a FROM u UNION SELECT c FROM u) s", 0);
        expected.put("SELECT a FROM u UNION SELECT id FROM u", 0);
        expected.put("SELECT a FROM u UNION SELECT NULL FROM u", 0);
        expected.put("SELECT a FROM u UNION SELECT b FROM u UNION SELECT c FROM u", 0);
        expected.put("SELECT a FROM u UNION SELECT a * 2 FROM u", 0);
        expected.put("SELECT a FROM u UNION SELECT b FROM u ORDER BY 1", 6);
        expected.put("SELECT * FROM (SELECT a FROM u UNION SELECT b FROM u) s", 6);
        Map<String, Integer> got = new LinkedHashMap<>();
        for (String sql : expected.keySet()) {
            got.put(sql, cube.query(sql).precision(0));
        }
        assertEquals(expected, got);
    }
}
