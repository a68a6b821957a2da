package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which LEFT JOINs {@link EagerAggregation} aggregates eagerly, and how the outer query combines the partials (the
 * answers are checked against DuckDB in {@code join/left_join_many.test} and TPC-H's Q13 in {@code
 * reference/tpch.test}).
 */
class EagerAggregationTest {

    private static final TableSchema CUST = new TableSchema(
            "cust",
            List.of(
                    ColumnSpec.of("ck", ColumnType.LONG),
                    ColumnSpec.of("name", ColumnType.STRING),
                    ColumnSpec.of("nation", ColumnType.STRING)));

    private static final TableSchema ORD = new TableSchema(
            "ord",
            List.of(
                    ColumnSpec.of("ok", ColumnType.LONG),
                    ColumnSpec.of("ck", ColumnType.LONG),
                    ColumnSpec.of("price", ColumnType.LONG),
                    ColumnSpec.of("note", ColumnType.STRING)));

    /** A catalog of cust and ord, where the columns {@code keys} names ({@code table.column}) are keys. */
    private static SqlBinder.Catalog catalog(Set<String> keys) {
        return new SqlBinder.Catalog() {
            @Override
            public Optional<TableSchema> schema(String table) {
                return Optional.ofNullable(
                        table.equalsIgnoreCase("cust") ? CUST : table.equalsIgnoreCase("ord") ? ORD : null);
            }

            @Override
            public boolean unique(String table, String column) {
                return keys.contains((table + "." + column).toLowerCase(Locale.ROOT));
            }
        };
    }

    /** The query rewritten (in place, or anew under ORDER BY), as lower-case text; null where it was left alone. */
    private static String rewritten(String sql, Set<String> keys) {
        SqlNode parsed = SqlBinder.parse(sql);
        String before = parsed.toString();
        String after =
                new EagerAggregation(catalog(keys), n -> n).rewrite(parsed).toString();
        return after.equals(before)
                ? null
                : after.toLowerCase(Locale.ROOT).replace("`", "").replace('\n', ' ');
    }

    @Test
    void aggregatesTheRightTableByItsKeyAndCombinesThePartials() {
        String sql = rewritten(
                "SELECT c.nation, COUNT(o.ok), SUM(price), MIN(price), COUNT(*) FROM cust c LEFT JOIN ord o"
                        + " ON c.ck = o.ck AND o.note NOT LIKE '%x%' GROUP BY c.nation",
                Set.of());
        assertTrue(
                sql.contains("left join (select o.ck as __k, count(o.ok) as __a1, sum(price) as __a2,"
                        + " min(price) as __a3, count(*) as __a4 from ord as o where o.note not like '%x%'"
                        + " group by o.ck) as __group1 on c.ck = __group1.__k"),
                sql);
        assertTrue(sql.contains("coalesce(sum(__group1.__a1), 0) as count(ok)"), sql);
        assertTrue(sql.contains("sum(__group1.__a2) as sum(price)"), sql);
        assertTrue(sql.contains("min(__group1.__a3) as min(price)"), sql);
        assertTrue(sql.contains("sum(coalesce(__group1.__a4, 1)) as count_star()"), sql);
    }

    @Test
    void combinesHavingAndOrderByAndKeepsAliases() {
        String sql = rewritten(
                "SELECT name, COUNT(ok) AS n FROM cust c LEFT JOIN ord o USING (ck) GROUP BY name"
                        + " HAVING MAX(price) > 3 ORDER BY COUNT(ok) DESC",
                Set.of());
        assertTrue(sql.contains("on c.ck = __group1.__k"), sql);
        assertTrue(sql.contains("coalesce(sum(__group1.__a1), 0) as n"), sql);
        assertTrue(sql.contains("having max(__group1.__a2) > 3"), sql);
        assertTrue(sql.contains("order by coalesce(sum(__group1.__a1), 0) desc"), sql);
    }

    @Test
    void leavesAJoinOnAKnownKeyAsItIs() {
        assertNull(rewritten(
                "SELECT name, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ok GROUP BY name", Set.of("ord.ok")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT name, COUNT(ok) FROM cust c JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name, COUNT(c.nation), COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name, AVG(price) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name, COUNT(DISTINCT price) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name, note, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name, note",
                "SELECT name, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ck WHERE price > 1 GROUP BY name",
                "SELECT name, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ck AND c.nation = 'fr' GROUP BY name",
                "SELECT name, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck < o.ck GROUP BY name",
                "SELECT name, COUNT(ok) FILTER (WHERE price > 1) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name, MAX(price) - MIN(price) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT DISTINCT name, COUNT(ok) FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
                "SELECT name FROM cust c LEFT JOIN ord o ON c.ck = o.ck GROUP BY name",
            })
    void leavesOtherQueriesAlone(String sql) {
        assertNull(rewritten(sql, Set.of()), sql);
    }
}
