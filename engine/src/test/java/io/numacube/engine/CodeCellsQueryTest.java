package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H Q1's shape on a table built to reach every path of the table of cells ({@code exec/CodeCells}) and its
 * one-loop scan ({@code exec/CellScan}): a plain DECIMAL(15,2) price of more than 65,536 values, negative ones
 * included, NULL in some morsels only (those take the per-aggregate paths), discount and tax of one-byte codes (in a
 * second table, NULL discounts), a date of two-byte codes as the mask, two flags as keys. Each query is answered with the cells on,
 * with the one loop off and with the cells off, and each answer must be DuckDB's. Prices near the bound where a row's
 * product leaves 64 bits raise 22003 as they do row by row, and at the bound give DuckDB's answer.
 */
class CodeCellsQueryTest {

    private static final String[] SETTINGS = {"numacube.codeCells", "numacube.cellScan"};
    /** The largest price whose product with (1 - 0.00) * (1 + 0.08) fits 64 bits, unscaled: MAX / (100 * 108). */
    private static final long BOUND = Long.MAX_VALUE / 10_800;

    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4_096));
        for (TableStaging t : List.of(
                lineitem("li", new Random(1), false),
                lineitem("li_null_d", new Random(2), true),
                edge("at_bound", BOUND),
                edge("past_bound", BOUND + 1))) {
            cube.loadTable(t);
            duck.load(t);
        }
    }

    @AfterAll
    static void close() throws Exception {
        for (String s : SETTINGS) {
            System.clearProperty(s);
        }
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        String q1 = "SELECT rf, ls, SUM(q), SUM(p), SUM(p * (1 - d)), SUM(p * (1 - d) * (1 + t)), AVG(q), AVG(p),"
                + " AVG(d), COUNT(*) FROM li";
        return List.of(
                q1 + " WHERE ship <= DATE '1998-09-02' GROUP BY rf, ls ORDER BY rf, ls",
                q1 + " GROUP BY rf, ls ORDER BY rf, ls",
                q1 + " WHERE ship <= DATE '1993-01-01' GROUP BY rf, ls ORDER BY rf, ls",
                "SELECT rf, SUM(p * (1 - d)), SUM(t), COUNT(*) FROM li WHERE ship > DATE '1994-06-01' GROUP BY rf"
                        + " ORDER BY rf",
                "SELECT SUM(p * d), SUM(p), COUNT(*) FROM li WHERE ship >= DATE '1994-01-01'",
                "SELECT rf, ls, SUM(p * (1 - d)) FILTER (WHERE q < 20), SUM(p * (1 - d) * (1 + t)), COUNT(*) FROM li"
                        + " GROUP BY rf, ls ORDER BY rf, ls",
                "SELECT rf, ls, SUM(p * (1 - d) * (1 + t)), SUM(q), MIN(p) FROM li WHERE d BETWEEN 0.02 AND 0.07"
                        + " GROUP BY rf, ls ORDER BY rf, ls",
                q1.replace("FROM li", "FROM li_null_d")
                        + " WHERE ship <= DATE '1998-09-02' GROUP BY rf, ls ORDER BY rf, ls",
                AT_BOUND);
    }

    /**
     * Products at the bound: DuckDB keeps DECIMAL(15,2) products in 18 digits and refuses them, so its answer is
     * asked with the price cast to DECIMAL(38,2) (the exact sums numacube computes in 64 bits a row, 128 a sum).
     */
    private static final String AT_BOUND =
            "SELECT ls, SUM(p * (1 - d) * (1 + t)), AVG(d), COUNT(*) FROM at_bound GROUP BY ls ORDER BY ls";

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDbWithAndWithoutTheCells(String sql) throws Exception {
        List<Object[]> theirs =
                duck.query(sql.equals(AT_BOUND) ? sql.replace("SUM(p ", "SUM(CAST(p AS DECIMAL(38, 2)) ") : sql);
        for (String off : new String[] {null, "numacube.cellScan", "numacube.codeCells"}) {
            setOnly(off);
            QueryResult ours = cube.query(sql);
            ResultComparator.assertSame(
                    off + " off: " + sql,
                    ours,
                    theirs,
                    0,
                    new boolean[ours.columnCount()],
                    sql.contains("ORDER BY"),
                    1e-12);
        }
        setOnly(null);
    }

    @ParameterizedTest
    @MethodSource("settings")
    void aRowPastTheBoundRaises22003AsRowByRow(String off) {
        setOnly(off);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> cube.query("SELECT ls, SUM(p * (1 - d) * (1 + t)), COUNT(*) FROM past_bound GROUP BY ls"));
        assertEquals("22003", e.code(), e.getMessage());
        setOnly(null);
    }

    static List<String> settings() {
        return java.util.Arrays.asList(null, "numacube.cellScan", "numacube.codeCells");
    }

    /** Every setting on but {@code off} (none when null). */
    private static void setOnly(String off) {
        for (String s : SETTINGS) {
            System.setProperty(s, Boolean.toString(!s.equals(off)));
        }
    }

    private static TableSchema schema(String name) {
        return new TableSchema(
                name,
                List.of(
                        ColumnSpec.of("rf", ColumnType.STRING),
                        ColumnSpec.of("ls", ColumnType.STRING),
                        ColumnSpec.decimal("q", 15, 2),
                        ColumnSpec.decimal("p", 15, 2),
                        ColumnSpec.decimal("d", 15, 2),
                        ColumnSpec.decimal("t", 15, 2),
                        ColumnSpec.of("ship", ColumnType.DATE)));
    }

    /**
     * 120,000 rows as described above; prices NULL in every 7th row of rows 40,000 to 44,999 only (the other morsels
     * have none, so the cells serve them); with {@code nullDiscounts} discounts too in every 13th row of rows 80,000 to
     * 81,999 (a NULL code of the discount's dictionary: the cells then serve no morsel).
     */
    private static TableStaging lineitem(String name, Random rnd, boolean nullDiscounts) {
        TableStaging st = new TableStaging(schema(name));
        int day0 = (int) java.time.LocalDate.parse("1992-01-02").toEpochDay();
        for (int r = 0; r < 120_000; r++) {
            st.setString(0, "ANR".substring(rnd.nextInt(3)).substring(0, 1));
            st.setString(1, rnd.nextBoolean() ? "F" : "O");
            st.setLong(2, 100L * (1 + rnd.nextInt(50)));
            if (r >= 40_000 && r < 45_000 && r % 7 == 0) {
                st.setNull(3);
            } else {
                st.setLong(3, rnd.nextInt(10_000_000) - (r % 10 == 0 ? 9_000_000 : 0));
            }
            if (nullDiscounts && r >= 80_000 && r < 82_000 && r % 13 == 0) {
                st.setNull(4);
            } else {
                st.setLong(4, rnd.nextInt(11));
            }
            st.setLong(5, rnd.nextInt(9));
            st.setDate(6, day0 + rnd.nextInt(2_526));
            st.endRow();
        }
        return st;
    }

    /**
     * 120,000 rows (so the price, of 72,002 values, is plain): prices {@code -top} and {@code top} (unscaled) in every fifth row each, the
     * others distinct and small; discount 0.00 or 0.01, tax 0.00 to 0.08, so that some row of price {@code top} has
     * the largest factors (row 26: discount 0.00, tax 0.08).
     */
    private static TableStaging edge(String name, long top) {
        TableStaging st = new TableStaging(schema(name));
        for (int r = 0; r < 120_000; r++) {
            st.setString(0, "A");
            st.setString(1, r % 4 < 2 ? "F" : "O");
            st.setLong(2, 100);
            st.setLong(3, r % 5 == 0 ? -top : r % 5 == 1 ? top : r);
            st.setLong(4, r % 2);
            st.setLong(5, r % 9);
            st.setDate(6, 9_000 + r % 1_000);
            st.endRow();
        }
        return st;
    }
}
