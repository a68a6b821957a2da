package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.sql.SqlBinder;
import java.util.Locale;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which derived tables {@link DerivedTableMerge} merges (the answers, merged or not, are checked against DuckDB in
 * {@code subquery/derived_merge.test} and TPC-H's Q7, Q8 and Q22 in {@code reference/tpch.test}).
 */
class DerivedTableMergeTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT d, SUM(v) AS s FROM (SELECT desk AS d, pnl * 2 AS v FROM trades WHERE pnl > 0) x GROUP BY d",
                "SELECT x.d, COUNT(*) AS n FROM (SELECT desk AS d FROM trades) x GROUP BY x.d",
                "SELECT x.d, SUM(d) AS n FROM (SELECT desk AS d FROM trades) x WHERE x.d <> 'a' GROUP BY x.d",
                "SELECT x.d, SUM(d) AS n FROM (SELECT desk AS d FROM trades) x GROUP BY x.d ORDER BY n",
                "SELECT y, SUM(z) AS s FROM (SELECT desk, pnl FROM trades) AS w (y, z) GROUP BY y ORDER BY y DESC",
            })
    void mergesADerivedTableThatOnlyFiltersAndComputes(String sql) {
        String merged = text(DerivedTableMerge.merge(SqlBinder.parse(sql)));
        assertEquals(1, count(merged, "select"), merged);
        assertTrue(merged.contains("from `trades`"), merged);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT d, SUM(p) FROM (SELECT desk AS d, pnl AS p FROM trades) s GROUP BY d",
                "SELECT d, COUNT(*) AS n FROM (SELECT DISTINCT desk AS d, book FROM trades) s GROUP BY d",
                "SELECT COUNT(*) AS n FROM (SELECT desk, SUM(pnl) AS s FROM trades GROUP BY desk) x WHERE s > 0",
                "SELECT d, COUNT(*) AS n FROM (SELECT desk AS d FROM trades LIMIT 5) x GROUP BY d",
                "SELECT d, COUNT(*) AS n FROM (SELECT desk AS d FROM trades) x, books GROUP BY d",
                "SELECT book, COUNT(*) AS n FROM (SELECT desk AS d FROM trades) x GROUP BY book",
                "SELECT d, COUNT(*) AS n FROM (SELECT * FROM trades) x GROUP BY d",
            })
    void leavesOtherDerivedTablesAlone(String sql) {
        String merged = text(DerivedTableMerge.merge(SqlBinder.parse(sql)));
        assertFalse(count(merged, "select") == 1, merged);
    }

    private static String text(SqlNode n) {
        return n.toString().toLowerCase(Locale.ROOT);
    }

    private static int count(String s, String word) {
        return s.split("\\b" + word + "\\b", -1).length - 1;
    }
}
