package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A statement run again is bound again whenever anything it could have read changed: a write between two runs of
 * the same text changes the answer (checked against sums computed here from the rows written), a table replaced by
 * one of other columns makes the text fail to bind, and a text that reads the clock is never kept. Where nothing
 * changed, the kept query is really handed out (so the fast path is not silently lost).
 */
class BoundStatementsTest {

    private static final String SUM = "SELECT COUNT(*), SUM(v) FROM t WHERE k > 1";

    private static final TableSchema KV =
            new TableSchema("t", List.of(ColumnSpec.of("k", ColumnType.INT), ColumnSpec.of("v", ColumnType.LONG)));

    private static Cube smallCube() {
        return Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
    }

    private static TableStaging rows(TableSchema schema, long from, long to) {
        TableStaging t = new TableStaging(schema);
        for (long i = from; i < to; i++) {
            t.setLong(0, i % 5);
            t.setLong(1, i * 3);
            t.endRow();
        }
        return t;
    }

    /** COUNT(*) and SUM(v) over rows {@code from..to-1} with k > 1, as {@link #rows} writes them. */
    private static List<Object> expected(long from, long to) {
        long count = 0;
        long sum = 0;
        for (long i = from; i < to; i++) {
            if (i % 5 > 1) {
                count++;
                sum += i * 3;
            }
        }
        return List.of(count, sum);
    }

    private static List<Object> answer(Cube cube, String sql) {
        QueryResult r = cube.query(sql);
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < r.columnCount(); c++) {
            row.add(((Number) r.getObject(0, c)).longValue());
        }
        return row;
    }

    @Test
    void writesBetweenRunsOfOneTextChangeItsAnswer() {
        try (Cube cube = smallCube()) {
            cube.loadTable(rows(KV, 0, 1000));
            assertEquals(expected(0, 1000), answer(cube, SUM));
            assertEquals(expected(0, 1000), answer(cube, SUM));
            cube.append("t", rows(KV, 1000, 1500));
            assertEquals(expected(0, 1500), answer(cube, SUM));
            cube.write(List.of(new TableDelete("DELETE FROM t WHERE v < 300")));
            assertEquals(expected(100, 1500), answer(cube, SUM));
            cube.loadTable(rows(KV, 7, 20));
            assertEquals(expected(7, 20), answer(cube, SUM));
            assertEquals(expected(7, 20), answer(cube, SUM));
        }
    }

    @Test
    void aTableReplacedByOtherColumnsMakesTheTextFailToBind() {
        try (Cube cube = smallCube()) {
            cube.loadTable(rows(KV, 0, 100));
            assertEquals(expected(0, 100), answer(cube, SUM));
            assertEquals(expected(0, 100), answer(cube, SUM));
            TableSchema renamed = new TableSchema(
                    "t", List.of(ColumnSpec.of("k", ColumnType.INT), ColumnSpec.of("w", ColumnType.LONG)));
            cube.loadTable(rows(renamed, 0, 100));
            NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(SUM));
            assertEquals(NumacubeException.Kind.BIND, e.kind());
        }
    }

    @Test
    void theKeptQueryIsHandedOutOnlyForItsGeneration() {
        BoundStatements kept = new BoundStatements();
        AtomicInteger binds = new AtomicInteger();
        Supplier<LogicalQuery> binder = () -> {
            binds.incrementAndGet();
            return SqlBinder.bind(SUM, table -> Optional.of(KV));
        };
        LogicalQuery first = kept.bound(SUM, 7, binder);
        assertSame(first, kept.bound(SUM, 7, binder));
        assertEquals(1, binds.get());
        LogicalQuery later = kept.bound(SUM, 8, binder);
        assertNotSame(first, later);
        assertEquals(2, binds.get());
        assertNotSame(later, kept.bound(SUM, 7, binder));
        assertEquals(3, binds.get());
    }

    @Test
    void aTextThatReadsTheClockIsBoundAtEveryCall() {
        String sql = "SELECT COUNT(*) FROM t WHERE k < 3 AND CURRENT_DATE > DATE '2000-01-01'";
        BoundStatements kept = new BoundStatements();
        AtomicInteger binds = new AtomicInteger();
        Supplier<LogicalQuery> binder = () -> {
            binds.incrementAndGet();
            return SqlBinder.bind(sql, table -> Optional.of(KV));
        };
        kept.bound(sql, 1, binder);
        kept.bound(sql, 1, binder);
        assertEquals(2, binds.get());
        assertTrue(BoundStatements.readsClock("select now() from t"));
        assertTrue(BoundStatements.readsClock("SELECT x FROM t WHERE d < Today()"));
        assertTrue(BoundStatements.readsClock("SELECT localtimestamp"));
        assertFalse(BoundStatements.readsClock("SELECT nowhere, k_today FROM t WHERE s = 'no w'"));
    }

    @Test
    void aFailedBindIsNotKept() {
        BoundStatements kept = new BoundStatements();
        AtomicInteger binds = new AtomicInteger();
        Supplier<LogicalQuery> failing = () -> {
            binds.incrementAndGet();
            throw new NumacubeException(NumacubeException.Kind.BIND, "no such column");
        };
        assertThrows(NumacubeException.class, () -> kept.bound(SUM, 1, failing));
        assertThrows(NumacubeException.class, () -> kept.bound(SUM, 1, failing));
        assertEquals(2, binds.get());
    }
}
