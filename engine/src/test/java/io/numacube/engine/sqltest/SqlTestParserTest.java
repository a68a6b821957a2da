package io.numacube.engine.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The .test file format: what each directive parses to, and that every malformed record names its file:line. */
class SqlTestParserTest {

    private static List<SqlTestRecord> parse(String text) {
        return SqlTestParser.parse("x.test", List.of(text.split("\n", -1)));
    }

    private static void assertParseError(String text, String expectedMessage) {
        SqlTestParseException e = assertThrows(SqlTestParseException.class, () -> parse(text));
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void parsesEveryDirectiveWithItsLine() {
        List<SqlTestRecord> records = parse("""
                # comment
                option morsel_rows=64
                option placement=interleave

                load trades generate 1_000 seed 7

                load t csv
                a,b
                1,x

                loop 3
                query IT rowsort tolerance 1e-6
                SELECT a,
                  b FROM t
                ----
                1\tx

                query R duckdb
                SELECT SUM(a) FROM t

                statement error 2:3
                SELECT
                  nope FROM t
                ----
                no such column

                statement ok
                SELECT COUNT(*) FROM t
                """);
        assertEquals(
                List.of(
                        new SqlTestRecord.Option(2, "morsel_rows", "64"),
                        new SqlTestRecord.Option(3, "placement", "interleave"),
                        new SqlTestRecord.LoadTrades(5, 1000, 7),
                        new SqlTestRecord.LoadCsv(7, "t", "a,b\n1,x\n", null, List.of()),
                        new SqlTestRecord.Query(11, "SELECT a,\n  b FROM t", "IT", true, 1e-6, List.of("1\tx"), 3),
                        new SqlTestRecord.Query(18, "SELECT SUM(a) FROM t", "R", false, null, null, 1),
                        new SqlTestRecord.StatementError(
                                21, "SELECT\n  nope FROM t", "no such column", new SqlPosition(2, 3)),
                        new SqlTestRecord.StatementOk(27, "SELECT COUNT(*) FROM t")),
                records);
    }

    @Test
    void aQueryWithSeparatorAndNoRowsExpectsNoRows() {
        SqlTestRecord.Query q =
                (SqlTestRecord.Query) parse("query I\nSELECT 1\n----").get(0);
        assertEquals(List.of(), q.expected());
        assertNull(q.tolerance());
    }

    @Test
    void malformedRecordsNameFileAndLine() {
        assertParseError(
                "\n\nquery X\nSELECT 1\n----\n1",
                "x.test:3: expected 'query TYPES ...' with one letter per column out of I R N T D B S, got: query X");
        assertParseError(
                "query I\nSELECT 1", "x.test:1: a query needs '----' and its expected rows, or the 'duckdb'" + " flag");
        assertParseError(
                "query I duckdb\nSELECT 1\n----\n1",
                "x.test:3: a 'duckdb' query has no '----' block: its answer is DuckDB's");
        assertParseError(
                "query I sorted\nSELECT 1\n----\n1",
                "x.test:1: unknown query option 'sorted' — known: nosort, rowsort, duckdb, tolerance T");
        assertParseError(
                "statement error\nSELECT 1",
                "x.test:1: 'statement error' needs '----' and a part of the" + " expected message");
        assertParseError(
                "statement error 1-2\nSELECT 1\n----\nx",
                "x.test:1: expected the error position as LINE:COLUMN (1-based), got: 1-2");
        assertParseError("statement ok", "x.test:1: the SQL is missing: write it on the lines after the directive");
        assertParseError(
                "option colour=red",
                "x.test:1: unknown option 'colour' — known: morsel_rows, nodes,"
                        + " partitioning, placement, stealing, threads");
        assertParseError("option threads=two", "x.test:1: threads is not an integer: two");
        assertParseError(
                "load fx generate 10 seed 1",
                "x.test:1: 'load ... generate' makes the tables trades and fx:"
                        + " write 'load trades generate N seed S'");
        assertParseError("load t csv", "x.test:1: 'load t csv' needs the CSV text on the next lines, header first");
        assertParseError("loop 2\nstatement ok\nSELECT 1", "x.test:1: 'loop N' must be followed by a 'query' line");
        assertParseError(
                "select 1",
                "x.test:1: unknown directive 'select' — a record starts with option, load, loop,"
                        + " query or statement");
    }
}
