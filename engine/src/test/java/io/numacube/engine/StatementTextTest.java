package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A statement's own FROM clause is told apart from the word in literals, names, comments and parentheses. */
class StatementTextTest {

    @Test
    void aFromClauseAtTheTopIsOne() {
        assertTrue(StatementText.hasTopLevelFrom("SELECT k FROM t"));
        assertTrue(StatementText.hasTopLevelFrom("select k\nfrom\tt where v = 'x'"));
        assertTrue(StatementText.hasTopLevelFrom("SELECT (SELECT 1) AS one FROM t"));
        assertTrue(StatementText.hasTopLevelFrom("SELECT 'it''s' FROM t"));
        assertTrue(StatementText.hasTopLevelFrom("FROM t SELECT k"));
    }

    @Test
    void theWordElsewhereIsNot() {
        assertFalse(StatementText.hasTopLevelFrom("SELECT 1"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 'from' AS w"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 'it''s from' AS w"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 1 AS \"from\""));
        assertFalse(StatementText.hasTopLevelFrom("SELECT EXTRACT(YEAR FROM DATE '2020-01-01')"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT (SELECT MAX(k) FROM o) + 1"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 1 -- from t\n"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 1 /* from t */"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT fromage, from_date"));
        assertFalse(StatementText.hasTopLevelFrom("SELECT 'unterminated from"));
    }
}
