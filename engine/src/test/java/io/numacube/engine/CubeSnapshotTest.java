package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvRows;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.ingest.csv.CsvWriter;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table exported from a {@link CubeSnapshot} as CSV ({@link CsvRows}) and loaded into another cube answers every
 * query as the table did: every column type with NULLs, text that needs quoting, dictionaries grown out of order by
 * appends, merged partitions, rows an upsert replaced or a DELETE removed left out. And a snapshot keeps its versions
 * while later appends publish new ones.
 */
class CubeSnapshotTest {

    private static final TableSchema SCHEMA = TableSchema.parse(
            "t",
            "id:long,s:string,k:int,day:date,ok:boolean,v:double,n:long,ts:timestamp,px:decimal(12,2),big:decimal(18,4)");
    private static final String[] AWKWARD = {
        "", " lead", "trail ", "a,b", "quo\"te", "line\nbreak", "cr\rlf", "ünïcødé", "NA", "\ttab", "NULL"
    };

    private Cube cube;
    private int nextId;

    @BeforeEach
    void load() {
        cube = open();
        Random rnd = new Random(5);
        cube.loadTable(batch(rnd, 2_000, 0));
        for (int b = 1; b <= 30; b++) {
            cube.append("t", batch(rnd, 1 + rnd.nextInt(300), b));
        }
        // rows a snapshot no longer holds: replaced by an upsert, deleted
        cube.setKey("t", List.of("id"));
        int after = nextId;
        nextId = 100;
        cube.append("t", batch(rnd, 50, 31));
        nextId = after;
        cube.write(List.of(new TableDelete("DELETE FROM t WHERE id % 7 = 0 OR s = 'a,b'")));
    }

    @AfterEach
    void close() {
        cube.close();
    }

    private static Cube open() {
        return Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
    }

    /** Rows whose text and numbers grow with the batch, so appended values land before and after the loaded ones. */
    private TableStaging batch(Random rnd, int rows, int b) {
        TableStaging t = new TableStaging(SCHEMA);
        for (int r = 0; r < rows; r++) {
            t.setLong(0, nextId++);
            if (rnd.nextInt(15) == 0) {
                t.setNull(1);
            } else {
                int pick = rnd.nextInt(20);
                t.setString(1, pick < AWKWARD.length ? AWKWARD[pick] : (char) ('z' - rnd.nextInt(3 + b % 20)) + "" + b);
            }
            nullOr(t, rnd, 2, () -> t.setLong(2, rnd.nextInt(50) - 10 * b));
            nullOr(t, rnd, 3, () -> t.setDate(3, 19_000 + rnd.nextInt(40) - b));
            nullOr(t, rnd, 4, () -> t.setBoolean(4, rnd.nextBoolean()));
            // binary fractions, so that sums are exact in any order
            nullOr(t, rnd, 5, () -> t.setDouble(5, Math.rint(rnd.nextGaussian() * 1e9) / 1024));
            nullOr(t, rnd, 6, () -> t.setLong(6, rnd.nextLong() >> (20 + rnd.nextInt(44))));
            nullOr(t, rnd, 7, () -> t.setLong(7, 1_700_000_000_000_000L + rnd.nextInt(1_000_000) * 1_001L));
            nullOr(t, rnd, 8, () -> t.setLong(8, rnd.nextInt(200_000) - 100_000));
            nullOr(t, rnd, 9, () -> t.setLong(9, rnd.nextLong() / 1_000_000));
            t.endRow();
        }
        return t;
    }

    private static void nullOr(TableStaging t, Random rnd, int column, Runnable value) {
        if (rnd.nextInt(12) == 0) {
            t.setNull(column);
        } else {
            value.run();
        }
    }

    private static final List<String> QUERIES = List.of(
            "SELECT COUNT(*), COUNT(s), COUNT(k), COUNT(day), COUNT(ok), COUNT(v), COUNT(n), COUNT(ts), COUNT(px) FROM t",
            "SELECT SUM(id), SUM(k), SUM(v), SUM(n), SUM(px), SUM(big), MIN(day), MAX(day), MIN(ts), MAX(ts) FROM t",
            "SELECT s, COUNT(*), SUM(px), MIN(k), MAX(n) FROM t GROUP BY s ORDER BY s NULLS FIRST",
            "SELECT ok, day, COUNT(*), SUM(v) FROM t GROUP BY ok, day ORDER BY ok NULLS FIRST, day NULLS FIRST",
            "SELECT id, s, k, day, ok, v, n, ts, px, big FROM t WHERE id % 97 = 3 ORDER BY id",
            "SELECT COUNT(DISTINCT s), COUNT(DISTINCT k), COUNT(DISTINCT v), COUNT(DISTINCT ts) FROM t");

    @Test
    void aTableExportedAsCsvAndLoadedAgainAnswersAsBefore() throws IOException {
        byte[] csv;
        TableSchema stored;
        long rows;
        try (CubeSnapshot s = cube.openSnapshot()) {
            assertEquals(List.of("t"), s.tables());
            stored = s.schema("t");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CsvWriter w = new CsvWriter(out);
            w.writeHeader(stored);
            rows = s.export("t", new CsvRows(w, stored));
            w.close();
            csv = out.toByteArray();
            assertEquals(s.rowCount("t"), rows);
        }
        assertEquals(cube.rowCount("t"), rows);
        // the declaration as text, as a checkpoint keeps it
        TableSchema declared = new TableSchema(
                "t",
                stored.columns().stream()
                        .map(c -> ColumnSpec.parse(c.name(), c.typeName()))
                        .toList());
        try (Cube reloaded = open()) {
            reloaded.loadTable(new CsvStagingLoader(CsvOptions.DEFAULT)
                    .stage(csv, "export.csv", declared)
                    .staging());
            assertEquals(rows, reloaded.rowCount("t"));
            for (String q : QUERIES) {
                assertEquals(cube.query(q).toString(), reloaded.query(q).toString(), q);
            }
            assertEquals(
                    stored.columns().stream().map(ColumnSpec::typeName).toList(),
                    reloaded.schema("t").columns().stream()
                            .map(ColumnSpec::typeName)
                            .toList());
        }
    }

    @Test
    void aSnapshotKeepsItsVersionWhileLaterAppendsPublishNewOnes() throws IOException {
        long before = cube.rowCount("t");
        long idSum = cube.query("SELECT SUM(id) FROM t").getLong(0, 0);
        try (CubeSnapshot s = cube.openSnapshot()) {
            long version = s.version("t");
            cube.append("t", batch(new Random(9), 500, 31));
            assertEquals(version + 1, cube.version("t"));
            assertEquals(before, s.rowCount("t"));
            long[] rows = {0};
            long[] ids = {0};
            long exported = s.export("t", new CountingVisitor(rows, ids));
            assertEquals(before, exported);
            assertEquals(before, rows[0]);
            assertEquals(idSum, ids[0], "each row once, deleted and replaced ones not");
        }
        assertEquals(before + 500, cube.rowCount("t"));
    }

    @Test
    void anUnknownTableAndAClosedCubeAreErrors() {
        CubeSnapshot s = cube.openSnapshot();
        NumacubeException e = assertThrows(NumacubeException.class, () -> s.rowCount("nope"));
        assertTrue(e.getMessage().startsWith("no such table in the snapshot: table=nope tables=[t]"), e.getMessage());
        cube.close();
        assertThrows(NumacubeException.class, () -> s.export("t", new CountingVisitor(new long[1], new long[1])));
        s.close();
    }

    /** Counts rows and sums column 0. */
    private record CountingVisitor(long[] rows, long[] idSum) implements io.numacube.engine.schema.RowVisitor {
        @Override
        public void nullValue(int column) {}

        @Override
        public void stringValue(int column, String value) {}

        @Override
        public void longValue(int column, long value) {
            if (column == 0) {
                idSum[0] += value;
            }
        }

        @Override
        public void doubleValue(int column, double value) {}

        @Override
        public void endRow() {
            rows[0]++;
        }
    }
}
