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
import org.apache.spark.sql.sources.GreaterThanOrEqual;
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
    void timestampsWithoutTimeZoneBecomeTimestampLiteralsToTheMicrosecond() {
        assertEquals(
                Optional.of("\"ts\" >= TIMESTAMP '2025-01-02 03:04:05.000006'"),
                sql(new GreaterThanOrEqual("ts", LocalDateTime.of(2025, 1, 2, 3, 4, 5, 6_000))));
        assertEquals(
                Optional.of(
                        "\"ts\" IN (TIMESTAMP '0001-01-01 00:00:00.000000', TIMESTAMP '9999-12-31 23:59:59.999999')"),
                sql(new In("ts", new Object[] {
                    LocalDateTime.of(1, 1, 1, 0, 0), LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)
                })));
    }

    @Test
    void whatMeansSomethingElseInSqlIsLeftToSpark() {
        assertEquals(Optional.empty(), sql(new StringStartsWith("desk", "DESK")));
        assertEquals(
                Optional.empty(),
                sql(new EqualTo("ts", java.time.Instant.parse("2025-01-01T00:00:00Z"))),
                "an instant needs a time zone, which numacube has not");
        assertEquals(Optional.empty(), sql(new EqualTo("ts", java.sql.Timestamp.valueOf("2025-01-01 00:00:00"))));
        assertEquals(
                Optional.empty(),
                sql(new EqualTo("ts", LocalDateTime.of(2025, 1, 1, 0, 0, 0, 1))),
                "a nanosecond numacube would drop");
        assertEquals(Optional.empty(), sql(new GreaterThan("ts", LocalDateTime.of(10_000, 1, 1, 0, 0))));
        assertEquals(Optional.empty(), sql(new GreaterThan("d", LocalDate.of(0, 12, 31))));
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
