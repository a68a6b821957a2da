package io.numacube.engine.fuzz;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.TableBatch;
import io.numacube.engine.TableDelete;
import io.numacube.engine.TableUpdate;
import io.numacube.engine.TableWrite;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random live writes to a keyed table (upserts by {@code id}, DELETE and UPDATE with conditions and subqueries,
 * a block of writes seen by its own query through {@link Cube#queryAfter}), the same writes applied to DuckDB as SQL,
 * and after each step queries compared with DuckDB's: GROUP BY a BIGINT with extreme, negative, narrow and NULL
 * values, a STRING dictionary grown past 256 and 65,536 values by the appends, IN, EXISTS and NOT EXISTS subqueries
 * a derived table grouped by the BIGINT, subqueries correlated by two columns for a few outer keys, and GROUP BY a plain
 * DOUBLE (coded at query time). {@code
 * -Dfuzz.writesSeed} changes the run.
 */
class LiveWritesTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("id", ColumnType.LONG),
                    ColumnSpec.of("k", ColumnType.LONG),
                    ColumnSpec.of("s", ColumnType.STRING),
                    ColumnSpec.of("d", ColumnType.DATE),
                    ColumnSpec.of("v", ColumnType.DOUBLE)));

    private static final List<String> QUERIES = List.of(
            "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k ORDER BY k NULLS FIRST",
            "SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY 2 DESC, 1 LIMIT 20",
            "SELECT COUNT(*), COUNT(DISTINCT s), COUNT(DISTINCT k), MIN(k), MAX(k), SUM(id), MIN(s), MAX(s) FROM t",
            "SELECT d, COUNT(*), MIN(k) FROM t WHERE k BETWEEN -5 AND 5 GROUP BY d ORDER BY d NULLS FIRST",
            "SELECT id, k, s FROM t WHERE k IN (SELECT k FROM t WHERE id % 11 = 0 AND k IS NOT NULL) ORDER BY id LIMIT 40",
            "SELECT COUNT(*) FROM t WHERE EXISTS (SELECT * FROM t t2 WHERE t2.k = t.k AND t2.id <> t.id)",
            "SELECT COUNT(*) FROM t WHERE NOT EXISTS (SELECT * FROM t t2 WHERE t2.s = t.s AND t2.id < t.id)",
            "SELECT COUNT(*), SUM(g.c), MIN(g.k), MAX(g.k) FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) g WHERE g.c > 1",
            "SELECT id, k, v FROM t WHERE s IN ('n1', 'n255', 'n256', 'n300', 'n65535', 'n65536', 'n70000', 'u')"
                    + " OR k = -9223372036854775808 OR k = 9223372036854775807 ORDER BY id",
            "SELECT k % 3 AS m, COUNT(*), SUM(v) FROM t WHERE k IS NOT NULL AND k > -1000000 GROUP BY m ORDER BY m",
            "SELECT id, v FROM t WHERE v > (SELECT AVG(v) * 3 FROM t t2 WHERE t2.k = t.k) ORDER BY id LIMIT 25",
            "SELECT v, COUNT(*), MIN(id) FROM t GROUP BY v ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 10",
            "SELECT COUNT(DISTINCT v), COUNT(DISTINCT id) FROM t WHERE v IS NOT NULL",
            // correlated by two columns, few outer keys: the subquery's keys looked up among t's pairs of codes
            "SELECT COUNT(*), SUM(v) FROM t WHERE t.id % 17 = 3 AND v >= (SELECT AVG(v) FROM t t2 WHERE t2.k = t.k AND t2.d = t.d)",
            "SELECT COUNT(*) FROM t WHERE t.id % 13 = 1 AND EXISTS (SELECT * FROM t t2 WHERE t2.d = t.d AND t2.k = t.k AND t2.id <> t.id)",
            "SELECT COUNT(*) FROM t WHERE t.id % 11 = 2 AND NOT EXISTS (SELECT * FROM t t2 WHERE t2.k = t.k AND t2.d = t.d AND t2.v > t.v)");

    private static final String[] CONDITIONS = {
        "k > 0",
        "k IS NULL",
        "k = 9223372036854775807",
        "s < 'n5'",
        "id % 7 = 3",
        "v < 0",
        "d > DATE '2020-01-01'",
        "k IN (SELECT k FROM t WHERE id % 5 = 0 AND k IS NOT NULL)",
        "k BETWEEN -3 AND 3 AND v > 0",
        "s IN ('n1', 'n256', 'u')",
        // correlated: refused in a DELETE or UPDATE, never applied wrongly
        "EXISTS (SELECT * FROM t t2 WHERE t2.k = t.k AND t2.id > t.id)",
        "v > (SELECT AVG(v) FROM t t2 WHERE t2.s = t.s)"
    };

    private final Random rnd = new Random(Long.getLong("fuzz.writesSeed", 20_261_126L));
    private final Map<Long, Boolean> ids = new LinkedHashMap<>();
    private long nextId;
    private int nextName;

    @Test
    void randomLiveWritesAnswerAsDuckDbAfterEveryStep() throws Exception {
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(1024))) {
            // about 200 names: the appends grow the dictionary past 256, step 6 past 65,536
            List<Object[]> first = rows(600, 0);
            cube.loadTable(stage(first));
            duck.load(T, first);
            cube.setKey("t", List.of("id"));
            compare("load", cube, duck);
            for (int step = 0; step < 16; step++) {
                String what = step(step, cube, duck);
                compare("step " + step + " (" + what + ")", cube, duck);
            }
        }
    }

    /**
     * A plain BIGINT of more than 65,536 values in a narrow range, coded at query time by a GROUP BY (dense codes over
     * its range), then grown by appends outside that range (below it, Long.MIN/MAX, NULL), deleted from and updated:
     * every later grouping, distinct count and join on it answers as DuckDB's.
     */
    @Test
    void aDenseCodedBigintGrownByAppendsOutsideItsRangeAnswersAsDuckDb() throws Exception {
        List<String> queries = List.of(
                "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 12",
                "SELECT COUNT(DISTINCT k), COUNT(k), MIN(k), MAX(k) FROM t",
                "SELECT k, COUNT(*) FROM t WHERE k < 5 OR k > 99990 GROUP BY k ORDER BY k NULLS FIRST",
                "SELECT COUNT(*) FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) g WHERE g.c > 1",
                "SELECT COUNT(*) FROM t WHERE k IN (SELECT k FROM t WHERE id % 1000 = 0 AND k IS NOT NULL)");
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(4096))) {
            List<Object[]> first = new ArrayList<>();
            for (long r = 0; r < 100_000; r++) {
                first.add(new Object[] {r, r, "n" + (r % 300), null, (double) (r % 17)});
            }
            cube.loadTable(stage(first));
            duck.load(T, first);
            compareAll("load", cube, duck, queries);
            long[][] batches = {
                {-5, -1, 100_000, 100_001},
                {Long.MIN_VALUE, Long.MAX_VALUE, 7, 7, 7},
                {3, 1L << 40, -(1L << 40), 99_999}
            };
            long id = 200_000;
            for (long[] keys : batches) {
                List<Object[]> batch = new ArrayList<>();
                for (long k : keys) {
                    batch.add(new Object[] {id++, k, "x", null, 1.0});
                }
                batch.add(new Object[] {id++, null, "x", null, 2.0});
                cube.append("t", stage(batch));
                upsertInto(duck, batch);
                compareAll("append " + java.util.Arrays.toString(keys), cube, duck, queries);
            }
            for (String sql : List.of(
                    "DELETE FROM t WHERE k % 3 = 0", "UPDATE t SET k = k + 1000000 WHERE k BETWEEN 10 AND 20")) {
                cube.write(List.of(sql.startsWith("DELETE") ? new TableDelete(sql) : new TableUpdate(sql)));
                duck.execute(sql);
                compareAll(sql, cube, duck, queries);
            }
        }
    }

    private static void compareAll(String when, Cube cube, DuckDb duck, List<String> queries) throws Exception {
        for (String sql : queries) {
            assertSame(when + ": " + sql, cube.query(sql), duck.query(sql));
        }
    }

    private String step(int step, Cube cube, DuckDb duck) throws Exception {
        if (step == 6) {
            // past 65,536 names in one batch of new rows
            return upsert(cube, duck, rows(66_000, 0));
        }
        return switch (rnd.nextInt(5)) {
            case 0, 1 -> upsert(cube, duck, rows(1 + rnd.nextInt(2000), 40));
            case 2 -> {
                String sql = "DELETE FROM t WHERE " + condition();
                yield write(cube, duck, sql, new TableDelete(sql));
            }
            case 3 -> {
                String sql = "UPDATE t SET " + assignment() + " WHERE " + condition();
                yield write(cube, duck, sql, new TableUpdate(sql));
            }
            default -> block(cube, duck);
        };
    }

    private String condition() {
        return CONDITIONS[rnd.nextInt(CONDITIONS.length)];
    }

    private String assignment() {
        return switch (rnd.nextInt(5)) {
            case 0 -> "v = v * 2 + 0.125";
            case 1 -> "s = 'u'";
            case 2 -> "k = " + key();
            case 3 -> "k = NULL";
            default -> "d = DATE '2031-05-06', v = -v";
        };
    }

    private String upsert(Cube cube, DuckDb duck, List<Object[]> batch) throws Exception {
        cube.append("t", stage(batch));
        upsertInto(duck, batch);
        return "upsert of " + batch.size() + " rows";
    }

    /**
     * One DELETE or UPDATE, in both. A correlated subquery in its WHERE is refused (it would be a join, and a write
     * takes one table): the refusal is checked, DuckDB left as it is, and the next comparison shows nothing changed.
     */
    private String write(Cube cube, DuckDb duck, String sql, TableWrite w) throws Exception {
        try {
            cube.write(List.of(w));
        } catch (io.numacube.numa.base.NumacubeException e) {
            if (!sql.contains(" t2 ") || !String.valueOf(e.getMessage()).contains("takes one table")) {
                throw e;
            }
            return sql + " (refused)";
        }
        duck.execute(sql);
        return sql;
    }

    /** An upsert and a DELETE pending, seen by their own queries, then dropped: the cube must not change. */
    private String block(Cube cube, DuckDb duck) throws Exception {
        Map<Long, Boolean> idsBefore = new LinkedHashMap<>(ids);
        long nextIdBefore = nextId;
        List<Object[]> batch = rows(1 + rnd.nextInt(300), 60);
        // a subquery in a pending DELETE reads the table as it was before the block (README: DELETE in a block),
        // where DuckDB's sees the block's upsert: conditions without one here
        String condition = condition();
        while (condition.contains("SELECT")) {
            condition = condition();
        }
        String delete = "DELETE FROM t WHERE " + condition;
        List<TableWrite> pending = List.of(new TableBatch("t", stage(batch)), new TableDelete(delete));
        duck.execute("BEGIN TRANSACTION");
        try {
            upsertInto(duck, batch);
            duck.execute(delete);
            for (String sql : QUERIES) {
                QueryResult ours = cube.queryAfter(pending, sql, io.numacube.engine.result.Cancellation.NONE);
                assertSame("block [upsert " + batch.size() + ", " + delete + "]: " + sql, ours, duck.query(sql));
            }
        } finally {
            duck.execute("ROLLBACK");
        }
        ids.clear();
        ids.putAll(idsBefore);
        nextId = nextIdBefore;
        return "block of writes, dropped";
    }

    private void compare(String when, Cube cube, DuckDb duck) throws Exception {
        for (String sql : QUERIES) {
            assertSame(when + ": " + sql, cube.query(sql), duck.query(sql));
        }
    }

    private static void assertSame(String context, QueryResult ours, List<Object[]> theirs) {
        ResultComparator.assertSame(context, ours, theirs, 0, new boolean[ours.columnCount()], true, 1e-9);
    }

    /** {@code n} rows, {@code reusePercent} of them replacing existing ids; ids unique within the batch. */
    private List<Object[]> rows(int n, int reusePercent) {
        List<Object[]> out = new ArrayList<>();
        java.util.Set<Long> used = new java.util.HashSet<>();
        List<Long> existing = new ArrayList<>(ids.keySet());
        for (int i = 0; i < n; i++) {
            long id = !existing.isEmpty() && rnd.nextInt(100) < reusePercent
                    ? existing.get(rnd.nextInt(existing.size()))
                    : nextId++;
            if (!used.add(id)) {
                continue;
            }
            ids.put(id, true);
            String s = rnd.nextInt(3) == 0 || nextName == 0 ? "n" + nextName++ : "n" + rnd.nextInt(nextName);
            Long d = rnd.nextInt(12) == 0
                    ? null
                    : (long) LocalDate.of(2019, 1, 1).toEpochDay() + rnd.nextInt(900);
            Double v = rnd.nextInt(15) == 0 ? null : (rnd.nextInt(16_001) - 8000) / 8.0;
            out.add(new Object[] {id, key(), s, d, v});
        }
        return out;
    }

    /** A BIGINT key: narrow, negative, wide, sparse, extreme or NULL. */
    private Long key() {
        return switch (rnd.nextInt(8)) {
            case 0 -> (long) rnd.nextInt(11) - 5;
            case 1 -> null;
            case 2 -> rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            case 3 -> rnd.nextLong();
            case 4 -> (long) rnd.nextInt(4) << 40;
            case 5 -> -1_000_000L - rnd.nextInt(100);
            default -> (long) rnd.nextInt(300);
        };
    }

    private static String keyLiteral(Long k) {
        return k == null ? "NULL" : k == Long.MIN_VALUE ? "(-9223372036854775807 - 1)" : k.toString();
    }

    private static void upsertInto(DuckDb duck, List<Object[]> batch) throws Exception {
        for (int from = 0; from < batch.size(); from += 1000) {
            List<Object[]> part = batch.subList(from, Math.min(batch.size(), from + 1000));
            StringBuilder del = new StringBuilder("DELETE FROM t WHERE id IN (");
            StringBuilder ins = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < part.size(); i++) {
                Object[] r = part.get(i);
                del.append(i == 0 ? "" : ", ").append(r[0]);
                ins.append(i == 0 ? "(" : ", (")
                        .append(r[0])
                        .append(", ")
                        .append(keyLiteral((Long) r[1]))
                        .append(", '")
                        .append(r[2])
                        .append("', ")
                        .append(r[3] == null ? "NULL" : "DATE '" + LocalDate.ofEpochDay((Long) r[3]) + "'")
                        .append(", ")
                        .append(r[4] == null ? "NULL" : r[4].toString())
                        .append(')');
            }
            duck.execute(del.append(')').toString());
            duck.execute(ins.toString());
        }
    }

    private static TableStaging stage(List<Object[]> rows) {
        TableStaging t = new TableStaging(T);
        for (Object[] row : rows) {
            for (int c = 0; c < T.size(); c++) {
                Object x = row[c];
                if (x == null) {
                    t.setNull(c);
                } else if (x instanceof String str) {
                    t.setString(c, str);
                } else if (x instanceof Double d) {
                    t.setDouble(c, d);
                } else if (c == 3) {
                    t.setDate(c, (int) (long) (Long) x);
                } else {
                    t.setLong(c, (Long) x);
                }
            }
            t.endRow();
        }
        return t;
    }
}
