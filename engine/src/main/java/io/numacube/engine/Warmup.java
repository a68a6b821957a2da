package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Warms the engine before its first real query: runs a fixed set of query shapes (scans with date and decimal
 * filters, groupings by text, integer and date keys, sums of decimal products, joins through two tables, EXISTS and
 * IN subqueries, COUNT DISTINCT, LIKE, CASE, ORDER BY with LIMIT, projections) over small generated tables in a private
 * cube of its own, until each has run {@link #ROUNDS} times or the time budget is spent. The JVM then has parsed,
 * planned and compiled what any query goes through, so a server's first query does not pay for class loading and the
 * JIT. What is data-specific (a table's join index, a column coded at query time) is still the first query's work, but
 * its code is compiled too: the wide-key tables, loaded again each round, take the query-time coding and the joins
 * through it on every round.
 *
 * <p>It never reads or changes a user's tables: its cube is opened and closed here, with small morsels so that the
 * kernels' loops run many times over few rows. The queries name none of the user's tables or columns. Stateless;
 * thread-safe (each call has its own cube).
 */
public final class Warmup {

    /** The warm-up's default time budget in seconds: {@code serve --warm-up}'s default, and the TPC-H bench's. */
    public static final int DEFAULT_BUDGET_SECONDS = 10;

    /** How often each query shape runs at most: enough for the JIT's last tier on the kernels' methods. */
    public static final int ROUNDS = 40;

    /** Rows of the generated fact table. */
    static final int FACT_ROWS = 40_000;

    /** Rows per morsel in the warm-up cube, so each query runs the per-morsel kernels many times. */
    static final int MORSEL_ROWS = 2_048;

    private static final String[] QUERIES = {
        "SELECT flag, status, SUM(q), SUM(p), SUM(p * (1 - disc)), SUM(p * (1 - disc) * (1 + tax)), AVG(q), AVG(p),"
                + " AVG(disc), COUNT(*) FROM wf WHERE d <= DATE '1998-09-02' GROUP BY flag, status"
                + " ORDER BY flag, status",
        "SELECT SUM(p * disc) FROM wf WHERE d >= DATE '1994-01-01' AND d < DATE '1995-01-01'"
                + " AND disc BETWEEN 0.05 AND 0.07 AND q < 24",
        "SELECT region, SUM(p * (1 - disc)) AS revenue FROM wf JOIN wd ON wf.k = wd.k JOIN wr ON wd.rk = wr.rk"
                + " WHERE seg = 'S1' AND d >= DATE '1995-01-01' GROUP BY region ORDER BY revenue DESC",
        "SELECT cat, COUNT(DISTINCT k), MIN(d), MAX(x), SUM(n) FROM wf GROUP BY cat HAVING COUNT(*) > 10"
                + " ORDER BY cat LIMIT 20",
        "SELECT EXTRACT(YEAR FROM d) AS y, SUM(CASE WHEN flag = 'A' THEN p ELSE 0 END) / SUM(p) FROM wf"
                + " GROUP BY y ORDER BY y",
        "SELECT k, SUM(n) FROM wf WHERE txt LIKE '%7%' GROUP BY k ORDER BY 2 DESC, k LIMIT 10",
        "SELECT seg, COUNT(*) FROM wd WHERE EXISTS (SELECT * FROM wf WHERE wf.k = wd.k AND q > 40) GROUP BY seg"
                + " ORDER BY seg",
        "SELECT name, SUM(x), COUNT(x) FROM wf JOIN wd ON wf.k = wd.k WHERE flag IN ('A', 'R') AND x IS NOT NULL"
                + " GROUP BY name ORDER BY 2 DESC LIMIT 5",
        "SELECT k, d, p FROM wf WHERE n = 5 ORDER BY d, k LIMIT 100",
        "SELECT seg, COUNT(*) FROM wd WHERE k IN (SELECT k FROM wf WHERE cat = 3) GROUP BY seg ORDER BY seg",
        "SELECT wd.k, SUM(q) FROM wf JOIN wd ON wf.k = wd.k WHERE q > (SELECT AVG(q) FROM wf) GROUP BY wd.k"
                + " ORDER BY 2 DESC, wd.k LIMIT 10",
        "SELECT status, cat, COUNT(*), SUM(n), MIN(txt) FROM wf WHERE d BETWEEN DATE '1996-01-01' AND DATE"
                + " '1996-12-31' OR x < 0 GROUP BY status, cat ORDER BY status, cat",
    };

    /**
     * Shapes over the wide-key tables ({@link #lines}, {@link #orders}), whose join key has more values than a load
     * codes through a dictionary: the fact's key is coded at query time, the join index built through it, grouped by
     * it and its keys walked from a subquery's side, as TPC-H's order keys are, and grouped by the joined table's
     * columns (its plain ones coded at query time) through the join, as Q10 and Q18 group. Their tables are loaded again before
     * every round, so that this data-specific work runs each round, not only the first.
     */
    private static final String[] WIDE_KEY_QUERIES = {
        "SELECT mode, SUM(CASE WHEN prio = 'P1' OR prio = 'P2' THEN 1 ELSE 0 END), COUNT(*) FROM wl JOIN wo"
                + " ON wl.ok = wo.ok WHERE ld >= DATE '1994-01-01' AND ld < DATE '1995-01-01' GROUP BY mode"
                + " ORDER BY mode",
        "SELECT wl.ok, od, SUM(v) FROM wl JOIN wo ON wl.ok = wo.ok WHERE od < DATE '1995-03-15' GROUP BY wl.ok, od"
                + " ORDER BY 3 DESC, 1 LIMIT 10",
        "SELECT prio, COUNT(*) FROM wo WHERE od >= DATE '1993-07-01' AND od < DATE '1993-10-01' AND EXISTS"
                + " (SELECT * FROM wl WHERE wl.ok = wo.ok AND v > 100) GROUP BY prio ORDER BY prio",
        "SELECT ck, COUNT(*), SUM(tp) FROM wo WHERE ok IN (SELECT ok FROM wl GROUP BY ok HAVING SUM(v) > 190000)"
                + " GROUP BY ck ORDER BY 2 DESC, 1 LIMIT 10",
        "SELECT wo.ok, ck, tp, od, prio, SUM(v) FROM wl JOIN wo ON wl.ok = wo.ok GROUP BY wo.ok, ck, tp, od, prio"
                + " ORDER BY tp DESC, od LIMIT 10",
        "SELECT ck, prio, SUM(v), COUNT(*) FROM wl JOIN wo ON wl.ok = wo.ok WHERE od >= DATE '1993-10-01'"
                + " AND od < DATE '1994-01-01' GROUP BY ck, prio ORDER BY 3 DESC, 1 LIMIT 20",
    };

    /** The system property that, {@code false}, leaves out the two groupings by joined columns (an A/B of them). */
    static final String JOINED_GROUPS_PROPERTY = "numacube.warmUpJoinedGroups";

    /** Rows of the wide-key tables: more distinct keys than a load codes through a dictionary. */
    static final int WIDE_KEY_ROWS = 100_000;

    private Warmup() {}

    /**
     * What a warm-up did.
     *
     * @param queries  queries run (all shapes, all rounds)
     * @param rounds   complete rounds of every shape
     * @param failures shapes that failed (their first error each); empty when all ran
     * @param elapsed  time taken, tables generated and cube closed included
     */
    public record Report(int queries, int rounds, List<String> failures, Duration elapsed) {}

    /**
     * Runs the warm-up on workers placed as {@code options} says (threads, nodes, placement), stopping after {@link
     * #ROUNDS} rounds or once {@code budget} has passed (checked between queries). A failing shape is left out of
     * later rounds and reported, never thrown.
     */
    public static Report run(CubeOptions options, Duration budget) {
        return run(options, budget, ROUNDS);
    }

    /** As {@link #run(CubeOptions, Duration)}, for at most {@code maxRounds} rounds. */
    static Report run(CubeOptions options, Duration budget, int maxRounds) {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        List<String> failures = new ArrayList<>();
        int queries = 0;
        int rounds = 0;
        try (Cube cube = Cube.open(options.withMorselRows(MORSEL_ROWS))) {
            SplittableRandom rnd = new SplittableRandom(20261126L);
            cube.loadTable(regions());
            cube.loadTable(dimension(rnd));
            cube.loadTable(fact(rnd));
            List<String> shapes = queries();
            boolean[] failed = new boolean[shapes.size()];
            while (rounds < maxRounds && System.nanoTime() < deadline) {
                cube.loadTable(orders(rnd));
                cube.loadTable(lines(rnd));
                for (int i = 0; i < shapes.size() && System.nanoTime() < deadline; i++) {
                    if (failed[i]) {
                        continue;
                    }
                    try {
                        cube.query(shapes.get(i));
                        queries++;
                    } catch (NumacubeException e) {
                        failed[i] = true;
                        failures.add(shapes.get(i) + ": " + e.getMessage());
                    }
                }
                rounds++;
            }
        }
        return new Report(queries, rounds, List.copyOf(failures), Duration.ofNanos(System.nanoTime() - start));
    }

    /** How many query shapes a round runs. */
    public static int shapes() {
        return QUERIES.length + WIDE_KEY_QUERIES.length;
    }

    /** The query shapes, in the order a round runs them. */
    static List<String> queries() {
        List<String> all = new ArrayList<>(List.of(QUERIES));
        all.addAll(List.of(WIDE_KEY_QUERIES));
        if ("false".equals(System.getProperty(JOINED_GROUPS_PROPERTY))) {
            all.removeAll(List.of(WIDE_KEY_QUERIES).subList(WIDE_KEY_QUERIES.length - 2, WIDE_KEY_QUERIES.length));
        }
        return all;
    }

    /** The shapes over the wide-key tables, for tests. */
    static List<String> wideKeyQueries() {
        return List.of(WIDE_KEY_QUERIES);
    }

    /**
     * Order lines: an order key in {@code [0, WIDE_KEY_ROWS)} shared by up to four lines (about three quarters of the
     * keys appear, more than a load codes through a dictionary), a decimal value, a date and a text mode.
     */
    static TableStaging lines(SplittableRandom rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "wl",
                List.of(
                        ColumnSpec.of("ok", ColumnType.LONG),
                        ColumnSpec.decimal("v", 15, 2),
                        ColumnSpec.of("ld", ColumnType.DATE),
                        ColumnSpec.of("mode", ColumnType.STRING))));
        String[] modes = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK"};
        int firstDay = (int) java.time.LocalDate.of(1992, 1, 1).toEpochDay();
        for (int r = 0; r < WIDE_KEY_ROWS; r++) {
            st.setLong(0, r % 4 == 3 ? r - 1 : r);
            st.setLong(1, 100 + rnd.nextInt(10_000_000));
            st.setDate(2, firstDay + rnd.nextInt(2_500));
            st.setString(3, modes[rnd.nextInt(modes.length)]);
            st.endRow();
        }
        return st;
    }

    /** Orders: every key of {@link #lines}' range once, a text priority, a date, a customer and a decimal total. */
    static TableStaging orders(SplittableRandom rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "wo",
                List.of(
                        ColumnSpec.of("ok", ColumnType.LONG),
                        ColumnSpec.of("prio", ColumnType.STRING),
                        ColumnSpec.of("od", ColumnType.DATE),
                        ColumnSpec.of("ck", ColumnType.LONG),
                        ColumnSpec.decimal("tp", 15, 2))));
        int firstDay = (int) java.time.LocalDate.of(1992, 1, 1).toEpochDay();
        for (int k = 0; k < WIDE_KEY_ROWS; k++) {
            st.setLong(0, k);
            st.setString(1, "P" + (1 + rnd.nextInt(5)));
            st.setDate(2, firstDay + rnd.nextInt(2_400));
            st.setLong(3, rnd.nextInt(5_000));
            st.setLong(4, 1_000 + rnd.nextInt(50_000_000));
            st.endRow();
        }
        return st;
    }

    /** Fact rows: a join key, text flags, an integer category, a date, decimals, a double and a long with NULLs. */
    static TableStaging fact(SplittableRandom rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "wf",
                List.of(
                        ColumnSpec.of("k", ColumnType.LONG),
                        ColumnSpec.of("flag", ColumnType.STRING),
                        ColumnSpec.of("status", ColumnType.STRING),
                        ColumnSpec.of("cat", ColumnType.INT),
                        ColumnSpec.of("d", ColumnType.DATE),
                        ColumnSpec.decimal("q", 15, 2),
                        ColumnSpec.decimal("p", 15, 2),
                        ColumnSpec.decimal("disc", 15, 2),
                        ColumnSpec.decimal("tax", 15, 2),
                        ColumnSpec.of("x", ColumnType.DOUBLE),
                        ColumnSpec.of("n", ColumnType.LONG),
                        ColumnSpec.of("txt", ColumnType.STRING))));
        String[] flags = {"A", "N", "R"};
        int firstDay = (int) java.time.LocalDate.of(1992, 1, 1).toEpochDay();
        for (int r = 0; r < FACT_ROWS; r++) {
            st.setLong(0, rnd.nextInt(2_000));
            st.setString(1, flags[rnd.nextInt(flags.length)]);
            st.setString(2, rnd.nextBoolean() ? "F" : "O");
            st.setLong(3, rnd.nextInt(50));
            st.setDate(4, firstDay + rnd.nextInt(2_500));
            st.setLong(5, 100 + rnd.nextInt(4_900));
            st.setLong(6, 90_000 + rnd.nextInt(10_000_000));
            st.setLong(7, rnd.nextInt(11));
            st.setLong(8, rnd.nextInt(9));
            if (rnd.nextInt(20) == 0) {
                st.setNull(9);
            } else {
                st.setDouble(9, rnd.nextDouble() * 200 - 20);
            }
            st.setLong(10, rnd.nextInt(100));
            st.setString(11, "c" + rnd.nextInt(20_000));
            st.endRow();
        }
        return st;
    }

    /** Keys 0..1,999 of the fact's join key, a name, a segment and a region key. */
    static TableStaging dimension(SplittableRandom rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "wd",
                List.of(
                        ColumnSpec.of("k", ColumnType.LONG),
                        ColumnSpec.of("name", ColumnType.STRING),
                        ColumnSpec.of("seg", ColumnType.STRING),
                        ColumnSpec.of("rk", ColumnType.LONG))));
        for (int k = 0; k < 2_000; k++) {
            st.setLong(0, k);
            st.setString(1, "name" + k);
            st.setString(2, "S" + rnd.nextInt(5));
            st.setLong(3, rnd.nextInt(10));
            st.endRow();
        }
        return st;
    }

    /** Ten regions. */
    static TableStaging regions() {
        TableStaging st = new TableStaging(new TableSchema(
                "wr", List.of(ColumnSpec.of("rk", ColumnType.LONG), ColumnSpec.of("region", ColumnType.STRING))));
        for (int k = 0; k < 10; k++) {
            st.setLong(0, k);
            st.setString(1, "R" + (k % 4));
            st.endRow();
        }
        return st;
    }
}
