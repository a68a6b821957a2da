package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultPrinterTest {

    private static final QueryStats STATS = new QueryStats(0.25, 100, 800, 8, 6, 2, 1, Map.of(0, 8L), "scan");

    /** desk STRING, day DATE, n LONG, total DOUBLE with a null; values chosen to need quoting and alignment. */
    private static QueryResult sample() {
        return new QueryResult(
                List.of("desk", "day", "n", "SUM(pnl)"),
                List.of(ColumnType.STRING, ColumnType.DATE, ColumnType.LONG, ColumnType.DOUBLE),
                new Object[] {
                    new String[] {"FX", "Rates, \"EM\""},
                    new long[] {
                        LocalDate.of(2025, 1, 2).toEpochDay(),
                        LocalDate.of(2025, 1, 3).toEpochDay()
                    },
                    new long[] {5, 12345},
                    new double[] {1.0E10, -0.1}
                },
                new boolean[][] {null, null, null, {false, true}},
                2,
                STATS);
    }

    private static String print(QueryResult r, ResultPrinter.Format f, int max) {
        StringWriter s = new StringWriter();
        ResultPrinter.print(r, f, new PrintWriter(s), max);
        return s.toString();
    }

    @Test
    void alignsTextLeftAndNumbersRightUnderAHeaderRule() {
        String[] lines = print(sample(), ResultPrinter.Format.TABLE, -1).split("\n");
        assertEquals(4, lines.length);
        assertEquals("desk         day             n     SUM(pnl)", lines[0]);
        assertEquals("-----------  ----------  -----  -----------", lines[1]);
        assertEquals("FX           2025-01-02      5  10000000000", lines[2]);
        assertEquals("Rates, \"EM\"  2025-01-03  12345         NULL", lines[3]);
    }

    @Test
    void saysHowManyRowsWereLeftOut() {
        String s = print(sample(), ResultPrinter.Format.TABLE, 1);
        assertTrue(s.endsWith("(1 of 2 rows shown)\n"), s);
        assertEquals(4, s.split("\n").length);
    }

    @Test
    void writesCsvThatQuotesWhereNeededAndLeavesNullsEmpty() {
        assertEquals(
                "desk,day,n,SUM(pnl)\nFX,2025-01-02,5,1.0E10\n\"Rates, \"\"EM\"\"\",2025-01-03,12345,\n",
                print(sample(), ResultPrinter.Format.CSV, -1));
    }

    @Test
    void writesJsonRowsKeyedByColumnName() throws Exception {
        JsonNode rows = new ObjectMapper().readTree(print(sample(), ResultPrinter.Format.JSON, -1));
        assertEquals(2, rows.size());
        assertEquals("Rates, \"EM\"", rows.get(1).get("desk").asText());
        assertEquals("2025-01-02", rows.get(0).get("day").asText());
        assertEquals(12345, rows.get(1).get("n").asLong());
        assertEquals(1.0E10, rows.get(0).get("SUM(pnl)").asDouble());
        assertTrue(rows.get(1).get("SUM(pnl)").isNull());
    }

    @Test
    void jsonKeysAreUniqueAndNonFiniteDoublesAreNamedNotNulled() throws Exception {
        QueryResult r = new QueryResult(
                List.of("d", "d", "d_1", "x"),
                List.of(ColumnType.DOUBLE, ColumnType.DOUBLE, ColumnType.DOUBLE, ColumnType.DOUBLE),
                new Object[] {
                    new double[] {Double.POSITIVE_INFINITY},
                    new double[] {Double.NaN},
                    new double[] {Double.NEGATIVE_INFINITY},
                    new double[] {1.5}
                },
                new boolean[][] {null, null, null, null},
                1,
                STATS);
        JsonNode row = new ObjectMapper()
                .readTree(print(r, ResultPrinter.Format.JSON, -1))
                .get(0);
        assertEquals(List.of("d", "d_2", "d_1", "x"), iterate(row.fieldNames()));
        assertEquals("Infinity", row.get("d").asText());
        assertEquals("NaN", row.get("d_2").asText());
        assertEquals("-Infinity", row.get("d_1").asText());
        assertEquals(1.5, row.get("x").asDouble());
    }

    /** DuckDB: COPY (SELECT 'nan'::DOUBLE a, 'inf'::DOUBLE b, '-inf'::DOUBLE c, 1.5 d) TO 'o.csv' writes this. */
    @Test
    void writesNonFiniteDoublesToCsvAsDuckDbDoes() {
        QueryResult r = new QueryResult(
                List.of("a", "b", "c", "d"),
                List.of(ColumnType.DOUBLE, ColumnType.DOUBLE, ColumnType.DOUBLE, ColumnType.DOUBLE),
                new Object[] {
                    new double[] {Double.NaN},
                    new double[] {Double.POSITIVE_INFINITY},
                    new double[] {Double.NEGATIVE_INFINITY},
                    new double[] {1.5}
                },
                new boolean[][] {null, null, null, null},
                1,
                STATS);
        assertEquals("a,b,c,d\nnan,inf,-inf,1.5\n", print(r, ResultPrinter.Format.CSV, -1));
    }

    /** A NULL row in every type, then an empty string: what DuckDB's CLI, COPY TO csv and COPY TO json write. */
    private static QueryResult nullsAndAnEmptyString() {
        return new QueryResult(
                List.of("desk", "day", "n", "s"),
                List.of(ColumnType.STRING, ColumnType.DATE, ColumnType.LONG, ColumnType.DOUBLE),
                new Object[] {
                    new String[] {null, ""},
                    new long[] {0, LocalDate.of(2025, 1, 2).toEpochDay()},
                    new long[] {0, 5},
                    new double[] {0, 1.5}
                },
                new boolean[][] {{true, false}, {true, false}, {true, false}, {true, false}},
                2,
                STATS);
    }

    @Test
    void printsNullAsNullInTheTableAsDuckDbsCliDoes() {
        assertEquals(
                "desk  day            n     s\n----  ----------  ----  ----\nNULL  NULL        NULL  NULL\n"
                        + "      2025-01-02     5   1.5\n",
                print(nullsAndAnEmptyString(), ResultPrinter.Format.TABLE, -1));
    }

    /** DuckDB: COPY (VALUES (NULL::VARCHAR, NULL::DATE, NULL::BIGINT, NULL::DOUBLE), ('', ...)) TO 'o.csv'. */
    @Test
    void writesNullAsAnEmptyFieldAndTheEmptyStringQuotedToCsvAsDuckDbDoes() {
        assertEquals(
                "desk,day,n,s\n,,,\n\"\",2025-01-02,5,1.5\n",
                print(nullsAndAnEmptyString(), ResultPrinter.Format.CSV, -1));
    }

    @Test
    void writesNullAsJsonNullInEveryType() throws Exception {
        JsonNode rows = new ObjectMapper().readTree(print(nullsAndAnEmptyString(), ResultPrinter.Format.JSON, -1));
        for (String key : List.of("desk", "day", "n", "s")) {
            assertTrue(rows.get(0).get(key).isNull(), key);
            assertTrue(!rows.get(1).get(key).isNull(), key);
        }
        assertEquals("", rows.get(1).get("desk").asText());
    }

    private static List<String> iterate(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void printsDoublesWithTheShortestDigitsThatReadBack() {
        assertEquals("0.1", ResultPrinter.plain(0.1));
        assertEquals("-1234567.891", ResultPrinter.plain(-1234567.891));
        assertEquals("1.0E-7", ResultPrinter.plain(1e-7));
        assertEquals("0.0", ResultPrinter.plain(0.0));
        for (double v : new double[] {Math.PI * 1e9, -2.5e-5, 123456.789e3, 0.3 - 0.1}) {
            assertEquals(v, Double.parseDouble(ResultPrinter.plain(v)));
        }
    }

    @Test
    void summarisesTheRunInOneLine() {
        assertEquals(
                "(2 rows in 0.250 s; 8 morsels: 75.0% on their home node, 2 stolen, 1 skipped)",
                ResultPrinter.statsLine(sample()));
        QueryResult none = sample().withStats(new QueryStats(0.001, 0, 0, 0, 0, 0, 12, Map.of(), "scan"));
        assertEquals("(2 rows in 0.001 s; no morsel ran, 12 skipped)", ResultPrinter.statsLine(none));
    }

    @org.junit.jupiter.api.Test
    void tableDoublesDropFloatNoiseButKeepTheirValue() {
        assertEquals("-4074.4", ResultPrinter.readable(-4074.3999999999996));
        assertEquals("433361000", ResultPrinter.readable(433361000.0));
        assertEquals("0", ResultPrinter.readable(0.0));
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 10_000; i++) {
            double v = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(14));
            double back = Double.parseDouble(ResultPrinter.readable(v));
            assertEquals(v, back, Math.abs(v) * 1e-11 + 1e-300);
        }
    }
}
