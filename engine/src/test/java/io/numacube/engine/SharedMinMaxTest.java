package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which EXISTS and NOT EXISTS with a correlated inequality {@link Decorrelation} lets share one grouped MIN/MAX table
 * ({@link SharedMinMax}); the answers are checked against DuckDB in {@code subquery/shared_min_max.test} and TPC-H's
 * Q21 in {@code reference/tpch.test}.
 */
class SharedMinMaxTest {

    private static final TableSchema O =
            new TableSchema("o", List.of(ColumnSpec.of("ok", ColumnType.LONG), ColumnSpec.of("sk", ColumnType.LONG)));

    private static final TableSchema L = new TableSchema(
            "l",
            List.of(
                    ColumnSpec.of("lk", ColumnType.LONG),
                    ColumnSpec.of("sk", ColumnType.LONG),
                    ColumnSpec.of("late", ColumnType.LONG),
                    ColumnSpec.of("w", ColumnType.LONG)));

    private static final String Q21 = "SELECT ok FROM o WHERE EXISTS (SELECT * FROM l l2 WHERE l2.lk = o.ok AND l2.sk"
            + " <> o.sk) AND NOT EXISTS (SELECT * FROM l l3 WHERE l3.lk = o.ok AND l3.sk <> o.sk AND l3.late = 1)";

    @AfterEach
    void clearProperty() {
        System.clearProperty(SharedMinMax.PROPERTY);
    }

    /** The query as {@link Decorrelation} rewrites it, in lower case without quotes. */
    private static String rewritten(String sql) {
        SqlSelect select = (SqlSelect) SqlBinder.parse(sql);
        new Decorrelation(
                        t -> Optional.ofNullable(t.equalsIgnoreCase("o") ? O : t.equalsIgnoreCase("l") ? L : null),
                        t -> -1)
                .rewrite(select);
        return select.toString().toLowerCase(Locale.ROOT).replace("`", "").replace('\n', ' ');
    }

    private static int tables(String sql) {
        return sql.split("group by", -1).length - 1;
    }

    @Test
    void notExistsAddingATermReadsFilteredMinAndMaxFromTheExistsTable() {
        String sql = rewritten(Q21);
        assertEquals(1, tables(sql), sql);
        assertTrue(sql.contains("min(l2.sk) filter (where l2.late = 1) as __min1"), sql);
        assertTrue(sql.contains("max(l2.sk) filter (where l2.late = 1) as __max1"), sql);
        assertTrue(sql.contains("(__exists1.__min1 <> o.sk or __exists1.__max1 <> o.sk) is not true"), sql);
        assertTrue(!sql.contains("__anti"), sql);
    }

    @Test
    void theSameWhereTwiceReadsTheSameColumns() {
        String sql = rewritten(
                "SELECT ok FROM o WHERE EXISTS (SELECT * FROM l l2 WHERE l2.lk = o.ok AND l2.sk <> o.sk"
                        + " AND l2.w > 1) AND NOT EXISTS (SELECT * FROM l l3 WHERE l3.w > 1 AND l3.lk = o.ok AND l3.sk > o.sk)");
        assertEquals(1, tables(sql), sql);
        assertTrue(sql.contains("and __exists1.__max > o.sk"), sql);
    }

    @Test
    void aNotExistsFirstIsSharedByALaterExists() {
        String sql = rewritten("SELECT ok FROM o WHERE NOT EXISTS (SELECT * FROM l WHERE l.lk = o.ok AND l.sk <> o.sk)"
                + " AND EXISTS (SELECT * FROM l WHERE l.lk = o.ok AND l.sk <> o.sk AND l.w > 2)");
        assertEquals(1, tables(sql), sql);
        assertTrue(sql.contains("min(l.sk) filter (where l.w > 2)"), sql);
    }

    @Test
    void anotherInnerSideOrADroppedTermOrAnotherKeyGetsATableOfItsOwn() {
        assertEquals(2, tables(rewritten(Q21.replace("l3.sk <> o.sk", "l3.w <> o.sk"))));
        assertEquals(2, tables(rewritten(Q21.replace("l2.sk <> o.sk", "l2.sk <> o.sk AND l2.w > 0"))));
        assertEquals(2, tables(rewritten(Q21.replace("l3.lk = o.ok", "l3.w = o.ok"))));
    }

    @Test
    void theSharingCanBeTurnedOff() {
        System.setProperty(SharedMinMax.PROPERTY, "false");
        assertEquals(2, tables(rewritten(Q21)));
    }
}
