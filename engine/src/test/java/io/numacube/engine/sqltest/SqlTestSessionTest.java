package io.numacube.engine.sqltest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The runner fails where it must, with a message naming file:line, the SQL, and what was expected and found. */
class SqlTestSessionTest {

    private static final String CSV = "k,v,x\na,1,2.5\nb,2,-1\na,4,0.25\n";

    /** Runs {@code record} after loading the CSV as table t; returns the failure it must raise. */
    private static AssertionFailedError failureOf(SqlTestRecord record) throws Exception {
        SqlTestFile file = new SqlTestFile(Path.of("."), "self/check.test", List.of());
        try (SqlTestSession session = new SqlTestSession(file)) {
            session.run(new SqlTestRecord.LoadCsv(1, "t", CSV, null, java.util.List.of()));
            return assertThrows(AssertionFailedError.class, () -> session.run(record));
        }
    }

    private static void assertMentions(AssertionFailedError e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' missing from:\n" + e.getMessage());
        }
    }

    @Test
    void aWrongWrittenValueFailsShowingBothAnswers() throws Exception {
        AssertionFailedError e = failureOf(new SqlTestRecord.Query(
                7, "SELECT k, SUM(v) FROM t GROUP BY k", "TI", true, null, List.of("a\t6", "b\t2"), 1));
        assertMentions(
                e,
                "self/check.test:7",
                "SQL: SELECT k, SUM(v) FROM t GROUP BY k",
                "row 1 column 2: expected 6, got 5",
                "expected:\n  a\t6\n  b\t2",
                "actual:\n  a\t5\n  b\t2");
    }

    @Test
    void aWrongWrittenDoubleFailsWithoutTolerance() throws Exception {
        AssertionFailedError e = failureOf(
                new SqlTestRecord.Query(3, "SELECT SUM(x) FROM t", "R", false, null, List.of("1.7500000000000002"), 1));
        assertMentions(e, "self/check.test:3", "expected 1.7500000000000002, got 1.75");
    }

    @Test
    void aWrongTypeLetterFails() throws Exception {
        AssertionFailedError e =
                failureOf(new SqlTestRecord.Query(3, "SELECT SUM(v) FROM t", "R", false, null, List.of("7"), 1));
        assertMentions(e, "is LONG, written 'I', but the record declares 'R'");
    }

    @Test
    void anErrorWithAnotherMessageOrPositionFails() throws Exception {
        AssertionFailedError wrongText =
                failureOf(new SqlTestRecord.StatementError(4, "SELECT SUM(nope) FROM t", "no such table", null));
        assertMentions(
                wrongText,
                "self/check.test:4",
                "expected part: no such table",
                "actual message: no such column: column=nope");
        AssertionFailedError wrongPlace = failureOf(new SqlTestRecord.StatementError(
                4, "SELECT SUM(nope) FROM t", "no such column", new SqlPosition(1, 1)));
        assertMentions(wrongPlace, "expected the error at 1:1, the engine reports 1:12");
    }

    @Test
    void aQueryThatSucceedsWhereAnErrorIsExpectedFails() throws Exception {
        AssertionFailedError e =
                failureOf(new SqlTestRecord.StatementError(9, "SELECT SUM(v) FROM t", "overflow", null));
        assertMentions(e, "self/check.test:9", "but the query succeeded with 1 rows", "7");
    }
}
