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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TPC-H Q6's shape ({@code exec/MaskWords}: range masks applied 64 rows at a time) against DuckDB, each query with the
 * joint word selection on and off: NULL in every column (the NULL code of the date, discount and quantity
 * dictionaries; NULL prices in some morsels), rows at each bound of each range, empty ranges, ranges no row is in,
 * ranges every row is in, a mask that passes only the NULL code, a mask of two intervals beside the word-tested ones, a
 * date dictionary of more than 32,768 codes and a quantity dictionary of more than 128 (ranges in the upper half of a
 * lane), other aggregates over the selected rows. A row whose product leaves 64 bits raises 22003 when the masks select
 * it, and not when they do not.
 */
class MaskWordsQueryTest {

    private static final String SETTING = "numacube.maskWords";
    private static final String Q6 = "SELECT SUM(p * d) AS revenue FROM li WHERE ship >= DATE '1994-01-01'"
            + " AND ship < DATE '1994-01-01' + INTERVAL '1' YEAR AND d BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND q < 24";

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
                lineitem("li", new Random(6), 2_526, 50), lineitem("wide", new Random(7), 40_000, 200), edge())) {
            cube.loadTable(t);
            duck.load(t);
        }
    }

    @AfterAll
    static void close() throws Exception {
        System.clearProperty(SETTING);
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        String q6In = "SELECT SUM(p * d), COUNT(*), SUM(p), MIN(ship), MAX(q), AVG(d) FROM li WHERE ";
        return List.of(
                Q6,
                q6In + "ship BETWEEN DATE '1994-01-01' AND DATE '1994-12-31' AND d >= 0.05 AND d <= 0.07 AND q <= 24",
                q6In + "ship > DATE '1994-01-01' AND ship <= DATE '1995-01-01' AND d > 0.05 AND d < 0.07 AND q < 24.5",
                q6In + "ship >= DATE '1995-01-01' AND ship < DATE '1994-01-01' AND d BETWEEN 0.05 AND 0.07",
                q6In + "d BETWEEN 0.07 AND 0.05 AND q < 24",
                q6In + "ship < DATE '1992-01-01' AND d BETWEEN 0.05 AND 0.07 AND q < 24",
                q6In + "ship >= DATE '1992-01-01' AND d BETWEEN 0 AND 0.10 AND q < 100",
                q6In + "ship >= DATE '1992-01-02' AND ship <= DATE '1998-12-01' AND d <= 0.10 AND q >= 1",
                q6In + "ship IS NULL AND d BETWEEN 0.05 AND 0.07",
                q6In + "ship >= DATE '1994-01-01' AND ship < DATE '1995-01-01' AND d IS NULL AND q IS NOT NULL",
                q6In + "ship >= DATE '1994-01-01' AND ship < DATE '1995-01-01' AND d NOT BETWEEN 0.02 AND 0.08"
                        + " AND q < 24",
                q6In + "ship >= DATE '1994-01-01' AND ship < DATE '1995-01-01' AND d IN (0.01, 0.04, 0.09) AND q < 30",
                q6In + "ship = DATE '1994-06-01' AND d = 0.06",
                "SELECT SUM(p * d), COUNT(*) FROM wide WHERE ship >= DATE '1990-01-01' AND ship < DATE '1995-01-01'"
                        + " AND q >= 1.50 AND q < 1.90",
                "SELECT SUM(p * d), COUNT(*) FROM wide WHERE ship BETWEEN DATE '1900-01-01' AND DATE '1920-01-01'"
                        + " AND q < 0.40 AND d BETWEEN 0.01 AND 0.03");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDbWithTheWordSelectionOnAndOff(String sql) throws Exception {
        List<Object[]> theirs = duck.query(sql);
        for (String on : new String[] {"true", "false"}) {
            System.setProperty(SETTING, on);
            QueryResult ours = cube.query(sql);
            ResultComparator.assertSame(
                    SETTING + "=" + on + ": " + sql, ours, theirs, 0, new boolean[ours.columnCount()], false, 1e-12);
        }
        System.clearProperty(SETTING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void aSelectedRowWhoseProductLeaves64BitsRaises22003AndAnUnselectedOneDoesNot(String on) throws Exception {
        System.setProperty(SETTING, on);
        String passing = "SELECT SUM(p * d), COUNT(*) FROM edge WHERE ship >= DATE '1994-01-01'"
                + " AND ship < DATE '1995-01-01' AND d BETWEEN 100 AND 110 AND q < 24";
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(passing));
        assertEquals("22003", e.code(), e.getMessage());
        String sql = passing.replace("DATE '1994-01-01'", "DATE '1994-07-01'");
        QueryResult ours = cube.query(sql);
        ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], false, 1e-12);
        System.clearProperty(SETTING);
    }

    private static TableSchema schema(String name) {
        return new TableSchema(
                name,
                List.of(
                        ColumnSpec.decimal("q", 15, 2),
                        ColumnSpec.decimal("p", 15, 2),
                        ColumnSpec.decimal("d", 15, 2),
                        ColumnSpec.of("ship", ColumnType.DATE)));
    }

    /**
     * 120,000 rows: {@code days} ship dates from 1992-01-02 ({@code wide}: from 1900-01-01), discounts 0.00 to 0.10,
     * {@code quantities} quantities from 1 ({@code wide}: from 0.01); NULL dates, discounts and quantities in every
     * 101st, 103rd and 107th row; NULL prices in every 7th row of rows 40,000 to 44,999 only.
     */
    private static TableStaging lineitem(String name, Random rnd, int days, int quantities) {
        TableStaging st = new TableStaging(schema(name));
        boolean wide = name.equals("wide");
        int day0 = (int)
                java.time.LocalDate.parse(wide ? "1900-01-01" : "1992-01-02").toEpochDay();
        for (int r = 0; r < 120_000; r++) {
            if (r % 107 == 0) {
                st.setNull(0);
            } else {
                st.setLong(0, (wide ? 1 : 100) * (1 + (long) rnd.nextInt(quantities)));
            }
            if (r >= 40_000 && r < 45_000 && r % 7 == 0) {
                st.setNull(1);
            } else {
                st.setLong(1, 90_000 + rnd.nextInt(10_000_000));
            }
            if (r % 103 == 0) {
                st.setNull(2);
            } else {
                st.setLong(2, rnd.nextInt(11));
            }
            if (r % 101 == 0) {
                st.setNull(3);
            } else {
                st.setDate(3, day0 + (r < days ? r : rnd.nextInt(days)));
            }
            st.endRow();
        }
        return st;
    }

    /**
     * 20,000 rows of 1994: prices {@code 9e14} (unscaled) with discounts 100.00 to 110.00 (a product past 64 bits)
     * in the rows of January to June only, small prices and discounts elsewhere.
     */
    private static TableStaging edge() {
        TableStaging st = new TableStaging(schema("edge"));
        int day0 = (int) java.time.LocalDate.parse("1994-01-01").toEpochDay();
        for (int r = 0; r < 20_000; r++) {
            int day = r % 365;
            boolean big = day < 181;
            st.setLong(0, 100L * (1 + r % 30));
            st.setLong(1, big ? 900_000_000_000_000L : 1_000 + r);
            st.setLong(2, big ? 10_000 + r % 1_001 : 10_000 + r % 500);
            st.setDate(3, day0 + day);
            st.endRow();
        }
        return st;
    }
}
