package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splitsAtSemicolonsAndDropsBlankStatements() {
        assertEquals(List.of("SELECT 1", "SELECT 2"), SqlScript.statements("SELECT 1;\n\n SELECT 2 ;  ;\n"));
    }

    @Test
    void keepsSemicolonsInsideStringsAndQuotedIdentifiers() {
        assertEquals(
                List.of("SELECT 'a;b', \"c;d\" FROM t WHERE x = 'it''s;'", "SELECT 3"),
                SqlScript.statements("SELECT 'a;b', \"c;d\" FROM t WHERE x = 'it''s;'; SELECT 3"));
    }

    @Test
    void ignoresLineCommentsAndCommentOnlyText() {
        assertEquals(
                List.of("SELECT a \n FROM t"),
                SqlScript.statements("-- the first; query\nSELECT a -- trailing; note\n FROM t;\n-- done;\n"));
    }

    @Test
    void takesAStatementWithoutAFinalSemicolon() {
        assertEquals(List.of("SELECT 1"), SqlScript.statements("SELECT 1"));
        assertEquals(List.of(), SqlScript.statements("  \n -- nothing\n"));
    }

    @Test
    void knowsWhereEachStatementStartsInTheScript() {
        List<SqlScript.Statement> st = SqlScript.located("-- header\n  SELECT 1;  SELECT\n  2;\n\n'x';");
        assertEquals(3, st.size());
        assertEquals(new SqlScript.Statement("SELECT 1", 2, 3), st.get(0));
        assertEquals(new SqlScript.Statement("SELECT\n  2", 2, 14), st.get(1));
        assertEquals(new SqlScript.Statement("'x'", 5, 1), st.get(2));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                new int[] {3, 3}, st.get(1).scriptPosition(2, 3));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                new int[] {2, 20}, st.get(1).scriptPosition(1, 7));
    }
}
