package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Not;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Which Spark V2 predicates become numacube SQL, and how (literals given as Spark holds them: UTF8String, Decimal,
 * days, microseconds); what is left to Spark; the shards option's errors.
 */
class SqlFiltersTest {

    private static Optional<String> sql(Predicate p) {
        return SqlFilters.sql(p);
    }

    private static Predicate p(String name, Expression... children) {
        return new Predicate(name, children);
    }

    private static Expression col(String name) {
        return Expressions.column(name);
    }

    private static Expression lit(Object value, DataType type) {
        return new LiteralValue<>(value, type);
    }

    private static Expression text(String s) {
        return lit(UTF8String.fromString(s), DataTypes.StringType);
    }

    private static Expression date(LocalDate d) {
        return lit((int) d.toEpochDay(), DataTypes.DateType);
    }

    private static Expression ntz(LocalDateTime t) {
        return lit(t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1_000, DataTypes.TimestampNTZType);
    }

    @Test
    void comparisonsAndLogicOverLiteralsBecomeSql() {
        assertEquals(Optional.of("\"desk\" = 'O''Brien'"), sql(p("=", col("desk"), text("O'Brien"))));
        assertEquals(Optional.of("\"pnl\" > 0.5"), sql(p(">", col("pnl"), lit(0.5, DataTypes.DoubleType))));
        assertEquals(Optional.of("0.5 < \"pnl\""), sql(p("<", lit(0.5, DataTypes.DoubleType), col("pnl"))));
        assertEquals(
                Optional.of("\"trade_date\" <= DATE '2025-03-01'"),
                sql(p("<=", col("trade_date"), date(LocalDate.of(2025, 3, 1)))));
        assertEquals(
                Optional.of("\"n\" IN (1, 2, 12.50)"),
                sql(p(
                        "IN",
                        col("n"),
                        lit(1L, DataTypes.LongType),
                        lit(2, DataTypes.IntegerType),
                        lit(Decimal.apply("12.50"), DataTypes.createDecimalType(4, 2)))));
        assertEquals(
                Optional.of("(\"a\" IS NULL) OR (NOT (\"b\" = TRUE))"),
                sql(new Or(p("IS_NULL", col("a")), new Not(p("=", col("b"), lit(true, DataTypes.BooleanType))))));
    }

    @Test
    void twoColumnsCompareAsSparkComparesThem() {
        assertEquals(
                Optional.of("\"l_commitdate\" < \"l_receiptdate\""),
                sql(p("<", col("l_commitdate"), col("l_receiptdate"))));
        assertEquals(
                Optional.of("(\"shipped\" >= \"placed\") AND (\"shipped\" <> \"placed\")"),
                sql(new And(p(">=", col("shipped"), col("placed")), p("<>", col("shipped"), col("placed")))));
    }

    @Test
    void datesAndTimestampsWithoutTimeZoneBecomeLiteralsToTheMicrosecond() {
        assertEquals(
                Optional.of("\"ts\" >= TIMESTAMP '2025-01-02 03:04:05.000006'"),
                sql(p(">=", col("ts"), ntz(LocalDateTime.of(2025, 1, 2, 3, 4, 5, 6_000)))));
        assertEquals(
                Optional.of("\"ts\" < TIMESTAMP '1969-12-31 23:59:59.999999'"),
                sql(p("<", col("ts"), lit(-1L, DataTypes.TimestampNTZType))));
        assertEquals(Optional.of("\"d\" = DATE '1969-12-31'"), sql(p("=", col("d"), lit(-1, DataTypes.DateType))));
        assertEquals(
                Optional.of(
                        "\"ts\" IN (TIMESTAMP '0001-01-01 00:00:00.000000', TIMESTAMP '9999-12-31 23:59:59.999999')"),
                sql(p(
                        "IN",
                        col("ts"),
                        ntz(LocalDateTime.of(1, 1, 1, 0, 0)),
                        ntz(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)))));
    }

    @Test
    void whatMeansSomethingElseInSqlIsLeftToSpark() {
        assertEquals(Optional.empty(), sql(p("STARTS_WITH", col("desk"), text("DESK"))));
        assertEquals(
                Optional.empty(),
                sql(p("=", col("ts"), lit(0L, DataTypes.TimestampType))),
                "an instant needs a time zone, which numacube has not");
        assertEquals(Optional.empty(), sql(p(">", col("ts"), ntz(LocalDateTime.of(10_000, 1, 1, 0, 0)))));
        assertEquals(Optional.empty(), sql(p(">", col("d"), date(LocalDate.of(0, 12, 31)))));
        assertEquals(Optional.empty(), sql(p(">", col("pnl"), lit(Double.NaN, DataTypes.DoubleType))));
        assertEquals(Optional.empty(), sql(p("=", col("desk"), lit(null, DataTypes.StringType))));
        assertEquals(
                Optional.empty(),
                sql(p(
                        "=",
                        col("desk"),
                        lit(UTF8String.fromString("x"), org.apache.spark.sql.types.StringType.apply("UTF8_LCASE")))),
                "a collation numacube does not compare by");
        assertEquals(
                Optional.empty(),
                sql(p("=", Expressions.column("a.b"), lit(1, DataTypes.IntegerType))),
                "a nested field");
        assertEquals(
                Optional.empty(),
                sql(p(
                        ">",
                        new org.apache.spark.sql.connector.expressions.GeneralScalarExpression(
                                "+", new Expression[] {col("a"), col("b")}),
                        lit(1L, DataTypes.LongType))),
                "arithmetic");
        assertEquals(
                Optional.empty(),
                sql(new And(p("=", col("desk"), text("x")), p("STARTS_WITH", col("book"), text("B")))),
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
