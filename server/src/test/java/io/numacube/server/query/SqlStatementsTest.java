package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlStatementsTest {

    @Test
    void splitsAtSemicolonsThatAreCode() {
        String text = "SELECT ';' FROM t; -- a; comment\nSELECT \"x;y\" /* ; */ FROM t;$$ ; $$; E'\\'; still'";
        List<SqlStatements.Statement> st = SqlStatements.split(text);
        assertEquals(
                List.of(
                        "SELECT ';' FROM t",
                        "-- a; comment\nSELECT \"x;y\" /* ; */ FROM t",
                        "$$ ; $$",
                        "E'\\'; still'"),
                st.stream().map(SqlStatements.Statement::sql).toList());
        assertEquals(text.indexOf("-- a"), st.get(1).offset());
        assertEquals(text.indexOf("$$"), st.get(2).offset());
    }

    @Test
    void blankAndCommentOnlyStatementsAreDropped() {
        assertTrue(SqlStatements.isBlank("  ; -- nothing\n ; /* nor /* nested */ here */ ;"));
        assertEquals(1, SqlStatements.split(";;SELECT 1;;").size());
        assertFalse(SqlStatements.isBlank("SELECT 1"));
    }

    @Test
    void aParameterMarkerIsNotADollarQuote() {
        assertEquals(2, SqlStatements.split("SELECT $1; SELECT $2").size());
    }

    @Test
    void normalizeDropsCommentsAndCollapsesSpaceOutsideStrings() {
        assertEquals(
                "SELECT 'a  b' , x FROM t", SqlLexer.normalize("  SELECT   'a  b' -- note\n ,\tx /* c */ FROM t  "));
    }

    @Test
    void positionsConvertFromLineAndColumnToCharacters() {
        String sql = "SELECT\n  x, 😀 y\nFROM t";
        assertEquals(9, SqlPositions.index(sql, 2, 3));
        int y = sql.indexOf('y');
        assertEquals(y, SqlPositions.characterPosition(sql, y), "one surrogate pair before y: one character less");
        assertEquals(sql.length(), SqlPositions.index(sql, 9, 1));
    }
}
