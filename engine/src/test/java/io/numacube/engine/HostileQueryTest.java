package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Queries a hostile user writes in ten minutes: BIGINT arithmetic beyond 2^53 and beyond 64 bits, NaN, thousands
 * of AND/OR/NOT terms, absurd LIMITs, long IN lists, null arguments. Answers are compared with DuckDB (same rows);
 * errors must be one clear {@link NumacubeException}, never a wrong answer or a StackOverflowError.
 */
class HostileQueryTest {

    private static final long BIG = 9_007_199_254_740_993L; // 2^53 + 1: no double holds it

    private static final TableSchema T = TableSchema.parse("t", "k:string,d:int,v:long,x:double,y:double");
    private static final List<Object[]> ROWS = rows();

    /** A joined table with an INT (dictionary-coded) column, whose sums must stay exact, and DOUBLE factors. */
    private static final TableSchema L = TableSchema.parse("l", "k:string,i:int,f:double");

    private static final List<Object[]> L_ROWS = List.of(
            new Object[] {"k0", BIG, -2.0}, new Object[] {"k1", -3L, 0.5}, new Object[] {"k2", 1L, 3.0}, new Object[] {
                "k3", 4_503_599_627_370_497L, 1.0
            });

    private static DuckDb duck;
    private static Cube cube;

    private static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            long v = switch (i % 5) {
                case 0 -> BIG;
                case 1 -> BIG + i;
                case 2 -> -BIG + 3;
                default -> i * 7919L;
            };
            double x = i % 7 == 0 ? 0.0 : i % 11 == 0 ? -0.0 : i * 0.25;
            double y = i % 3 == 0 ? 0.0 : 1.0;
            rows.add(new Object[] {"k" + (i % 4), (long) (i % 9) - 4, v, x, y});
        }
        return rows;
    }

    @BeforeAll
    static void open() throws Exception {
        duck = new DuckDb();
        duck.load(T, ROWS);
        duck.load(L, L_ROWS);
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
        cube.loadTable(DuckDbDifferentialTest.staging(T, ROWS));
        cube.loadTable(DuckDbDifferentialTest.staging(L, L_ROWS));
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    private static void same(String sql, int keys, boolean ordered) throws Exception {
        QueryResult ours = cube.query(sql);
        // integers compare exactly; doubles within 1e-12 (sums of doubles may add in another order)
        ResultComparator.assertSame(sql, ours, duck.query(sql), keys, new boolean[ours.columnCount()], ordered, 1e-12);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT k, SUM(v * 1), MAX(v - 1), MIN(v + 1), SUM(v) * 3 FROM t GROUP BY k",
                "SELECT k, MAX(v * 1000 - v), MAX(v * 2), MIN(-v), SUM(d * 1000003 - v) FROM t GROUP BY k",
                "SELECT k, SUM(d * v), MAX(d * 1000000007 * 1000000007), SUM(-d) FROM t GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE v - 1 = 9007199254740992 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE v + 0 > 9007199254740992 AND v * 1 < 9007199254741000 GROUP BY k",
                "SELECT k, SUM(v) FROM t GROUP BY k HAVING SUM(v) - 1 > 0 ORDER BY SUM(v) * 1 DESC",
                "SELECT k, SUM(v / 3) FROM t GROUP BY k",
                "SELECT k, COUNT(*), MIN(v + -9223372036854775808) FROM t WHERE v > 0 AND v > -9223372036854775808 GROUP BY k",
            })
    void bigintArithmeticIsExact(String sql) throws Exception {
        same(sql, 1, sql.contains("ORDER BY"));
    }

    /**
     * An INT column of a joined table was summed as a per-key double times the key's row count, rounded back: 500
     * rows of k0 times 2^53 + 1 lost their last digits. Integer arguments are summed exactly, row by row.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT k, SUM(i), AVG(i), COUNT(i) FROM t JOIN l USING (k) GROUP BY k",
                "SELECT k, SUM(i * 2), SUM(i + d), SUM(v - i) FROM t JOIN l USING (k) GROUP BY k",
                "SELECT d, SUM(i) FROM t JOIN l USING (k) GROUP BY d",
                "SELECT k, SUM(x * f), MIN(x * f), MAX(x / y * f) FROM t JOIN l USING (k) GROUP BY k",
            })
    void aggregatesOfAJoinedIntegerColumnAreExact(String sql) throws Exception {
        same(sql, 1, false);
    }

    /**
     * A condition on one dimension is evaluated once per dictionary value (a code mask); where that overflows for a
     * value whose rows an earlier condition already excluded, it is evaluated row by row after it instead, as DuckDB
     * evaluates AND: no error, the same rows.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT k, COUNT(*) FROM t WHERE x > 1e9 AND d * 4611686018427387904 >= 0 GROUP BY k",
                "SELECT COUNT(*), SUM(v) FROM t WHERE x > 1e9 AND d * 4611686018427387904 >= 0",
                "SELECT k, COUNT(*) FROM t WHERE x > 1e9 OR (x < 0 AND d * 4611686018427387904 >= 0) GROUP BY k",
            })
    void aDimensionConditionThatOverflowsOnlyForExcludedRowsIsNoError(String sql) throws Exception {
        same(sql, sql.contains("GROUP BY") ? 1 : 0, false);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT SUM(v * 9223372036854775807) FROM t",
                "SELECT MAX(v + 9223372036854775807) FROM t",
                "SELECT MIN(v - 9223372036854775807 - 9223372036854775807) FROM t",
                "SELECT COUNT(*) FROM t WHERE v * 2048 + 1 > 0",
                "SELECT COUNT(*) FROM t WHERE v IN (1, 2) OR v - 9223372036854775807 * 2 > 0",
                "SELECT MAX(v) * 9223372036854775807 FROM t",
                "SELECT k, MIN(v) * 9223372036854775807 FROM t GROUP BY k HAVING COUNT(*) > 0",
            })
    void bigintOverflowIsAnErrorNamingTheExpression(String sql) throws Exception {
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(sql));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("overflow"), e.getMessage());
        assertThrows(Exception.class, () -> duck.query(sql), "DuckDB overflows too: " + sql);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT k, MIN(x / y), MAX(x / y), COUNT(*) FROM t GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x / y = x / y GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x / y > 1e300 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x / y < 10 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x / y <> 2.5 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x / y >= 0.0 / 0.0 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x = -0.0 GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE x IN (-0.0, 0.5) GROUP BY k",
                "SELECT k, MAX(x / y) FROM t GROUP BY k ORDER BY MAX(x / y), k",
                "SELECT k, MIN(x / y) FROM t GROUP BY k HAVING MAX(x / y) = 0.0 / 0.0",
            })
    void nanAndNegativeZeroFollowDuckDb(String sql) throws Exception {
        same(sql, 1, sql.contains("ORDER BY"));
    }

    @Test
    void thousandsOfAndOrNotTermsBindAndRun() throws Exception {
        // DuckDB's parser stops at 1,000 levels (and its native stack sooner): 300 terms are compared with DuckDB,
        // 5,000 with the same
        // predicate written as an IN list (which has no depth), and 3,001 NOTs with one NOT
        for (int terms : new int[] {300, 5000}) {
            List<String> values = IntStream.range(0, terms)
                    .mapToObj(i -> String.valueOf(i * 7919L))
                    .toList();
            String ands = values.stream().map(v -> "v <> " + v).collect(Collectors.joining(" AND "));
            String ors = values.stream().map(v -> "x = " + v).collect(Collectors.joining(" OR "));
            String dims = values.stream().map(v -> "k = 'k" + v + "'").collect(Collectors.joining(" OR "));
            String list = String.join(", ", values);
            String[][] cases = {
                {ands, "v NOT IN (" + list + ")"},
                {ors, "x IN (" + list + ")"},
                {dims, "k IN (" + values.stream().map(v -> "'k" + v + "'").collect(Collectors.joining(", ")) + ")"},
                {"(" + ands + ") OR (" + ors + ")", "v NOT IN (" + list + ") OR x IN (" + list + ")"}
            };
            for (String[] c : cases) {
                String sql = "SELECT k, COUNT(*), SUM(v) FROM t WHERE %s GROUP BY k";
                if (terms < 1000) {
                    same(String.format(sql, c[0]), 1, false);
                }
                assertEquals(
                        cube.query(String.format(sql, c[1])).toString(),
                        cube.query(String.format(sql, c[0])).toString().replace(c[0], c[1]));
            }
        }
        same("SELECT k, COUNT(*) FROM t WHERE " + "NOT ".repeat(301) + "x > 1 GROUP BY k", 1, false);
        assertEquals(
                cube.query("SELECT k, COUNT(*) FROM t WHERE NOT x > 1 GROUP BY k")
                        .toString(),
                cube.query("SELECT k, COUNT(*) FROM t WHERE " + "NOT ".repeat(3001) + "x > 1 GROUP BY k")
                        .toString());
    }

    /**
     * 50,000-term AND and OR chains give the answers of the same predicate as an IN list (which {@link
     * #longInListsGiveDuckDbsAnswers} compares with DuckDB, whose parser stops at 1,000 levels of a chain): Calcite's
     * parser took time quadratic in the terms of one parenthesis level (minutes for these); their terms are now
     * grouped before parsing ({@code LongChains}). An unknown column in the chain's last term is named at its column in
     * the user's text.
     */
    @Test
    void fiftyThousandTermChainsGiveTheirInListsAnswers() throws Exception {
        List<String> values = IntStream.range(0, 50_000)
                .mapToObj(i -> String.valueOf(i * 7919L))
                .toList();
        String list = String.join(", ", values);
        String[][] cases = {
            {values.stream().map(v -> "x = " + v).collect(Collectors.joining(" OR ")), "x IN (" + list + ")"},
            {values.stream().map(v -> "v <> " + v).collect(Collectors.joining(" AND ")), "v NOT IN (" + list + ")"},
            {
                "k <> 'k3' AND ("
                        + values.stream()
                                .map(v -> "x = " + v + " AND NOT k LIKE 'z%'")
                                .collect(Collectors.joining("\nOR "))
                        + ")",
                "k <> 'k3' AND x IN (" + list + ")"
            },
        };
        for (String[] c : cases) {
            String sql = "SELECT k, COUNT(*), SUM(v) FROM t WHERE %s GROUP BY k";
            assertEquals(
                    cube.query(String.format(sql, c[1])).toString(),
                    cube.query(String.format(sql, c[0])).toString().replace(c[0], c[1]));
        }
        String sql = "SELECT COUNT(*) FROM t WHERE " + cases[0][0] + " OR zz = 1";
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(sql));
        assertEquals(
                sql.length() - "zz = 1".length() + 1, e.position().orElseThrow().column(), e.getMessage());
    }

    /**
     * Chains long enough to be grouped before parsing ({@code LongChains}) around what must not be grouped: a BETWEEN
     * (whose AND is no chain's), a CASE, IS NULL, NOT, LIKE, IN and parentheses in the terms, typed literals. Compared
     * with DuckDB.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT k, COUNT(*) FROM t WHERE x BETWEEN 1 AND 400 AND %s GROUP BY k",
                "SELECT k, SUM(CASE WHEN %s THEN 1 ELSE 0 END), COUNT(*) FROM t GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE %s OR x IS NULL OR (d IN (1, 2) AND NOT k LIKE 'k1%%') GROUP BY k",
                "SELECT k, COUNT(*) FROM t WHERE (%s) AND DATE '2024-01-01' < DATE '2024-02-01' GROUP BY k",
            })
    void groupedChainsAroundOtherSyntaxFollowDuckDb(String shape) throws Exception {
        String ors = IntStream.range(0, 300)
                .mapToObj(i -> (i % 3 == 0 ? "NOT x <> " : "x = ") + (i * 0.25) + (i % 7 == 0 ? " AND d > -3" : ""))
                .collect(Collectors.joining(" OR "));
        String ands = IntStream.range(0, 300)
                .mapToObj(i -> "x <> " + (i * 0.5) + (i % 5 == 0 ? " AND x BETWEEN -1 AND 1e9" : ""))
                .collect(Collectors.joining(" AND "));
        same(String.format(shape, ors), 1, false);
        same(String.format(shape, ands), 1, false);
    }

    @Test
    void tooDeepNestingIsAClearErrorWithItsPosition() {
        String parens = "(".repeat(5000) + "x" + ")".repeat(5000);
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(" + parens + ") FROM t"));
        assertTrue(e.getMessage().contains("1000") && e.getMessage().contains("line 1:"), e.getMessage());
        String plus = String.join(" + ", java.util.Collections.nCopies(3000, "v"));
        e = assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(" + plus + ") FROM t"));
        assertTrue(
                e.getMessage().contains("nested too deeply") && e.getMessage().contains("line 1:"), e.getMessage());
        String minus = "- ".repeat(4000);
        e = assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(" + minus + "x) FROM t"));
        assertTrue(e.getMessage().contains("1000"), e.getMessage());
    }

    @Test
    void parseErrorsCarryTheParsersReasonAndPosition() {
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(x FROM t"));
        assertEquals(NumacubeException.Kind.SYNTAX, e.kind());
        assertEquals("42601", e.code());
        assertTrue(e.detail().matches("(?s)SQL does not parse: \\S.*"), e.detail());
        assertEquals(1, e.position().orElseThrow().line());
        assertEquals(14, e.position().orElseThrow().column(), e.getMessage());
        assertTrue(e.getMessage().endsWith(" at line 1:14"), e.getMessage());
    }

    @Test
    void limitAndOffsetFollowDuckDb() throws Exception {
        same("SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k LIMIT 9223372036854775807", 1, true);
        same(
                "SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k LIMIT 9223372036854775807 OFFSET 9223372036854775807",
                1,
                true);
        same("SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k LIMIT 2 OFFSET 1", 1, true);
        for (String bad :
                List.of("LIMIT 99999999999999999999", "OFFSET 99999999999999999999", "LIMIT -1", "OFFSET -1")) {
            String sql = "SELECT k, COUNT(*) FROM t GROUP BY k " + bad;
            NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(sql), sql);
            assertTrue(
                    e.getMessage().contains(bad.startsWith("LIMIT") ? "LIMIT" : "OFFSET")
                            || bad.contains("-") && e.getMessage().contains("line 1:"),
                    e.getMessage());
            assertThrows(Exception.class, () -> duck.query(sql), "DuckDB refuses too: " + sql);
        }
    }

    @Test
    void hugeLiteralsAreClearErrorsNotCrashes() {
        for (String sql : List.of(
                "SELECT SUM(v) FROM t WHERE v IN (1, 99999999999999999999)",
                "SELECT SUM(v * 99999999999999999999) FROM t",
                "SELECT SUM(v) * 99999999999999999999 FROM t")) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(sql), sql);
            assertTrue(e.getMessage().contains("64 bits"), e.getMessage());
        }
    }

    @Test
    void longInListsGiveDuckDbsAnswers() throws Exception {
        String longs = ROWS.stream().limit(1500).map(r -> String.valueOf(r[2])).collect(Collectors.joining(", "));
        String wide = LongStream.range(0, 10_000)
                .map(i -> i * 7919L)
                .mapToObj(Long::toString)
                .collect(Collectors.joining(", "));
        String doubles = IntStream.range(0, 3000).mapToObj(i -> (i * 0.25) + "").collect(Collectors.joining(", "));
        String strings =
                IntStream.range(0, 3000).mapToObj(i -> "'k" + (i * 3) + "'").collect(Collectors.joining(", "));
        String ints = IntStream.range(-3000, 3000)
                .filter(i -> i % 2 == 0)
                .mapToObj(Integer::toString)
                .collect(Collectors.joining(", "));
        for (String where : List.of(
                "v IN (" + longs + ")",
                "v NOT IN (" + wide + ")",
                "v IN (" + wide + ", 2.5)",
                "x IN (" + doubles + ")",
                "x * 1 NOT IN (" + doubles + ")",
                "k IN (" + strings + ")",
                "d IN (" + ints + ")",
                "d + 0 IN (" + ints + ")",
                "v - 1 IN (9007199254740992, 1.0)")) {
            same("SELECT k, COUNT(*), SUM(v) FROM t WHERE " + where + " GROUP BY k", 1, false);
        }
    }

    @Test
    void publicMethodsNameTheirBadArguments() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> cube.relocate(null));
        assertTrue(e.getMessage().contains("placement"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> cube.query(null));
        assertTrue(e.getMessage().contains("sql"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> cube.loadTable(null));
        assertTrue(e.getMessage().contains("staging"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> Cube.open(null));
        assertTrue(e.getMessage().contains("options"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new io.numacube.engine.ingest.TableStaging(null));
        assertTrue(e.getMessage().contains("schema"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> Placement.parse(null));
        assertTrue(e.getMessage().contains("placement"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> Partitioning.parse(null));
        assertTrue(e.getMessage().contains("partitioning"), e.getMessage());
        QueryResult r = cube.query("SELECT k, COUNT(*) FROM t GROUP BY k");
        IndexOutOfBoundsException out = assertThrows(IndexOutOfBoundsException.class, () -> r.getLong(0, 7));
        assertTrue(out.getMessage().contains("column=7"), out.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> r.isNull(0, -1));
        e = assertThrows(NullPointerException.class, () -> r.columnIndex(null));
        assertTrue(e.getMessage().contains("name"), e.getMessage());
        IllegalArgumentException iae =
                assertThrows(IllegalArgumentException.class, () -> cube.generateTrades(-1, 1, null));
        assertTrue(iae.getMessage().contains("rows"), iae.getMessage());
    }
}
