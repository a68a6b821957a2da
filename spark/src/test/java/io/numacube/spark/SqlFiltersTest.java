package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;
import org.junit.jupiter.api.Test;

/** Which Spark filters become numacube SQL, and how; what is left to Spark; the shards option's errors. */
class SqlFiltersTest {

    private static Optional<String> sql(Filter f) {
        return SqlFilters.sql(f);
    }

    @Test
    void comparisonsAndLogicOverLiteralsBecomeSql() {
        assertEquals(Optional.of("\"desk\" = 'O''Brien'"), sql(new EqualTo("desk", "O'Brien")));
        assertEquals(Optional.of("\"pnl\" > 0.5"), sql(new GreaterThan("pnl", 0.5)));
        assertEquals(
                Optional.of("\"trade_date\" <= DATE '2025-03-01'"),
                sql(new LessThanOrEqual("trade_date", LocalDate.of(2025, 3, 1))));
        assertEquals(Optional.of("\"n\" IN (1, 2, 12.50)"), sql(new In("n", new Object[] {1L, 2, new BigDecimal("12.50")
        })));
        assertEquals(
                Optional.of("(\"a\" IS NULL) OR (NOT (\"b\" = TRUE))"),
                sql(new Or(new IsNull("a"), new Not(new EqualTo("b", true)))));
    }

    @Test
    void whatMeansSomethingElseInSqlIsLeftToSpark() {
        assertEquals(Optional.empty(), sql(new StringStartsWith("desk", "DESK")));
        assertEquals(Optional.empty(), sql(new EqualTo("ts", LocalDateTime.of(2025, 1, 1, 0, 0))));
        assertEquals(Optional.empty(), sql(new GreaterThan("pnl", Double.NaN)));
        assertEquals(Optional.empty(), sql(new EqualTo("a.b", 1)), "a nested field");
        assertEquals(
                Optional.empty(),
                sql(new And(new EqualTo("desk", "x"), new StringStartsWith("book", "B"))),
                "AND with a half Spark must apply is left whole to Spark");
    }

    @Test
    void theShardsOptionIsCheckedWithAClearMessage() {
        assertEquals(
                java.util.List.of(new ShardAddress("h1", 8080), new ShardAddress("10.0.0.2", 8081)),
                ShardAddress.parseList(" h1:8080, 10.0.0.2:8081 "));
        var e = assertThrows(IllegalArgumentException.class, () -> ShardAddress.parseList("h1:8080,h2"));
        assertEquals(
                "numacube: a shard is host:port: shard=h2 shards=h1:8080,h2 — e.g. h1:8080,h2:8080", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShardAddress.parseList("h1:8080,h1:8080"));
        assertTrue(e.getMessage().startsWith("numacube: a shard is listed twice"), e.getMessage());
    }
}
