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
        assertEquals(List.of("SELECT 'a;b', \"c;d\" FROM t WHERE x = 'it''s;'", "SELECT 3"),
                SqlScript.statements("SELECT 'a;b', \"c;d\" FROM t WHERE x = 'it''s;'; SELECT 3"));
    }

    @Test
    void ignoresLineCommentsAndCommentOnlyText() {
        assertEquals(List.of("SELECT a \n FROM t"),
                SqlScript.statements("-- the first; query\nSELECT a -- trailing; note\n FROM t;\n-- done;\n"));
    }

    @Test
    void takesAStatementWithoutAFinalSemicolon() {
        assertEquals(List.of("SELECT 1"), SqlScript.statements("SELECT 1"));
        assertEquals(List.of(), SqlScript.statements("  \n -- nothing\n"));
    }
}
