package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParameterizedSqlTest {

    @Test
    void markersInStringsIdentifiersAndCommentsAreNotParameters() {
        ParameterizedSql p =
                ParameterizedSql.parse("SELECT '$1', \"$2\", a$3 FROM t -- $4\nWHERE x = $1 /* $5 */ AND y = $2");
        assertEquals(2, p.parameterCount());
        assertEquals(
                "SELECT '$1', \"$2\", a$3 FROM t -- $4\nWHERE x = 'a' /* $5 */ AND y = (-1)",
                p.substitute(List.of("'a'", "(-1)")).sql());
    }

    @Test
    void aRepeatedOrLaterMarkerCountsAndASecondDigitIsPartOfIt() {
        ParameterizedSql p = ParameterizedSql.parse("SELECT $10, $1, $1");
        assertEquals(10, p.parameterCount());
        assertEquals(
                "42P02",
                assertThrows(NumacubeException.class, () -> ParameterizedSql.parse("SELECT $0"))
                        .code());
    }

    @Test
    void aLiteralThatWouldTouchAWordIsFollowedByASpace() {
        assertEquals(
                "SELECT 5 x",
                ParameterizedSql.parse("SELECT $1x").substitute(List.of("5")).sql());
    }

    @Test
    void positionsInTheBoundTextMapBackToTheClientsText() {
        String sql = "SELECT a FROM t WHERE b = $1 AND nosuch = $2";
        ParameterizedSql.Substituted s = ParameterizedSql.parse(sql).substitute(List.of("'a long literal'", "2"));
        assertEquals(sql.indexOf("nosuch"), s.originalIndex(s.sql().indexOf("nosuch")));
        assertEquals(sql.indexOf("$1"), s.originalIndex(s.sql().indexOf("long")));
        assertEquals(sql.indexOf("WHERE"), s.originalIndex(s.sql().indexOf("WHERE")));
    }

    @Test
    void bindingFewerValuesThanParametersIsACountErrorAsPostgresqlsBind() {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> ParameterizedSql.parse("SELECT a FROM t WHERE b = $1 AND c > $2")
                        .bind(List.of("'x'")));
        assertEquals("08P01", e.code());
        assertEquals("bind message supplies 1 parameters, but prepared statement requires 2", e.detail());
        assertEquals(
                "08P01",
                assertThrows(
                                NumacubeException.class,
                                () -> ParameterizedSql.parse("SELECT $1").bind(List.of("1", "2")))
                        .code());
    }

    @Test
    void aMarkerBeyondTheValuesIsNoSuchParameterAtTheMarker() {
        String sql = "SELECT a FROM t\nWHERE b = $1 AND c > $3";
        NumacubeException e = assertThrows(
                NumacubeException.class, () -> ParameterizedSql.parse(sql).bind(List.of("'x'", "2")));
        assertEquals("42P02", e.code());
        assertEquals("there is no parameter $3", e.detail());
        assertEquals(2, e.position().orElseThrow().line());
        assertEquals(
                sql.indexOf("$3") - sql.indexOf('\n'),
                e.position().orElseThrow().column());
    }

    @Test
    void noMarkersAndNoValuesBindToTheTextAsItIs() {
        assertEquals(
                "SELECT '$1'",
                ParameterizedSql.parse("SELECT '$1'").bind(List.of()).sql());
    }
}
