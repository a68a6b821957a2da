package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.server.pgwire.types.PgType;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParameterLiteralTest {

    @Test
    void textBecomesAStringWhoseQuotesAreDoubled() {
        assertEquals("'O''Brien'' OR ''1''=''1'", ParameterLiteral.ofText(PgType.VARCHAR.oid(), "O'Brien' OR '1'='1"));
        assertEquals("'x''; DROP TABLE t; --'", ParameterLiteral.ofText(PgType.UNSPECIFIED, "x'; DROP TABLE t; --"));
        assertEquals("'\\'", ParameterLiteral.ofText(PgType.TEXT.oid(), "\\"));
    }

    @Test
    void numbersMustBeNumbersOfTheirType() {
        assertEquals("42", ParameterLiteral.ofText(PgType.INT4.oid(), " 42 "));
        assertEquals("(-5)", ParameterLiteral.ofText(PgType.INT8.oid(), "-5"));
        assertEquals("22P02", state(() -> ParameterLiteral.ofText(PgType.INT8.oid(), "1; DROP TABLE t")));
        assertEquals("22P02", state(() -> ParameterLiteral.ofText(PgType.INT4.oid(), "1e3")));
        assertEquals("22003", state(() -> ParameterLiteral.ofText(PgType.INT4.oid(), "2147483648")));
        assertEquals("22003", state(() -> ParameterLiteral.ofText(PgType.INT8.oid(), "99999999999999999999")));
        assertEquals("1.5E0", ParameterLiteral.ofText(PgType.FLOAT8.oid(), "1.5"));
        assertEquals("(-1.0E20)", ParameterLiteral.ofText(PgType.FLOAT8.oid(), "-1e20"));
        assertEquals("CAST('NaN' AS DOUBLE)", ParameterLiteral.ofText(PgType.FLOAT8.oid(), "NaN"));
        assertEquals("22P02", state(() -> ParameterLiteral.ofText(PgType.FLOAT8.oid(), "0x1p3")));
        assertEquals("12.50", ParameterLiteral.ofText(PgType.NUMERIC.oid(), "12.50"));
        assertEquals("(-0.001)", ParameterLiteral.ofText(PgType.NUMERIC.oid(), "-1e-3"));
        assertEquals("0A000", state(() -> ParameterLiteral.ofText(PgType.NUMERIC.oid(), "NaN")));
    }

    @Test
    void datesTimestampsAndBooleansAreCheckedAndTyped() {
        assertEquals("DATE '2025-01-02'", ParameterLiteral.ofText(PgType.DATE.oid(), "2025-01-02"));
        assertEquals("22008", state(() -> ParameterLiteral.ofText(PgType.DATE.oid(), "2025-02-30")));
        assertEquals("22007", state(() -> ParameterLiteral.ofText(PgType.DATE.oid(), "'); DROP TABLE t; --")));
        assertEquals(
                "TIMESTAMP '2025-01-02 05:06:07.5'",
                ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2025-01-02 05:06:07.5+02"));
        assertEquals(
                "TIMESTAMP '2025-01-02 03:06:07'",
                ParameterLiteral.ofText(PgType.TIMESTAMPTZ.oid(), "2025-01-02 05:06:07+02:00"));
        assertEquals("TRUE", ParameterLiteral.ofText(PgType.BOOL.oid(), "on"));
        assertEquals("FALSE", ParameterLiteral.ofText(PgType.BOOL.oid(), "f"));
        assertEquals("22P02", state(() -> ParameterLiteral.ofText(PgType.BOOL.oid(), "maybe")));
    }

    @Test
    void booleanTextIsReadAsPostgreSqlsBoolin() {
        // PostgreSQL 15: SELECT 'tr'::boolean is t, ... 'o' and 'onn' are 22P02
        for (String yes : List.of("tr", " true ", "\tYE\n", "On", "1")) {
            assertEquals("TRUE", ParameterLiteral.ofText(PgType.BOOL.oid(), yes), yes);
        }
        for (String no : List.of("fa", "OF", "  no", "0 ")) {
            assertEquals("FALSE", ParameterLiteral.ofText(PgType.BOOL.oid(), no), no);
        }
        for (String bad : List.of("o", "onn", "yess", "01", "", " ")) {
            assertEquals("22P02", state(() -> ParameterLiteral.ofText(PgType.BOOL.oid(), bad)), bad);
        }
    }

    /**
     * 24:00:00 is the end of its day, the next day's midnight, in PostgreSQL and DuckDB; java.time's lenient parse
     * read it as the same day's 00:00 and dropped the day it carried: an INSERT of '2024-01-09 24:00:00' into a
     * timestamp column (psycopg's str, typed at Bind) stored 2024-01-09 00:00:00.
     */
    @Test
    void theHour24IsTheNextDaysMidnight() {
        assertEquals(
                "TIMESTAMP '2024-01-10 00:00:00'",
                ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2024-01-09 24:00:00"));
        assertEquals(
                "TIMESTAMP '2025-01-01 00:00:00'", ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2024-12-31 24:00"));
        assertEquals(
                "TIMESTAMP '2024-01-09 22:00:00'",
                ParameterLiteral.ofText(PgType.TIMESTAMPTZ.oid(), "2024-01-09 24:00:00+02"));
        assertEquals("22008", state(() -> ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2024-01-09 24:00:01")));
        assertEquals("22008", state(() -> ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2024-01-09 24:00:00.5")));
        assertEquals("22008", state(() -> ParameterLiteral.ofText(PgType.TIMESTAMP.oid(), "2024-01-09 25:00:00")));
    }

    @Test
    void anUnspecifiedDateLosesTheOffsetPgjdbcAdds() {
        assertEquals("'2025-01-02'", ParameterLiteral.ofText(PgType.UNSPECIFIED, "2025-01-02 +00"));
        assertEquals("'2025-01-02 10:00:00'", ParameterLiteral.ofText(PgType.UNSPECIFIED, "2025-01-02 10:00:00+01"));
        assertEquals("'2025-01-02'", ParameterLiteral.ofText(PgType.UNSPECIFIED, "2025-01-02"));
    }

    @Test
    void aTypeNumacubeDoesNotTakeIsRefused() {
        assertEquals("0A000", state(() -> ParameterLiteral.ofText(PgType.BYTEA.oid(), "\\x00")));
        assertEquals("0A000", state(() -> ParameterLiteral.ofText(2950, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")));
    }

    private static String state(org.junit.jupiter.api.function.Executable e) {
        return assertThrows(PgProtocolException.class, e).sqlState();
    }
}
