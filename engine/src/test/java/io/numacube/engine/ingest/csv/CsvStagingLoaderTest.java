package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.StagedRows;
import io.numacube.numa.base.NumacubeException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvStagingLoaderTest {

    private static Path writeTrades(Path file, long rows, long seed) throws Exception {
        TradesGenerator gen = new TradesGenerator(seed, rows);
        TradeRow t = new TradeRow();
        try (OutputStream out = Files.newOutputStream(file);
                CsvWriter w = new CsvWriter(out)) {
            w.writeHeader(TradesGenerator.TRADES);
            for (long i = 0; i < rows; i++) {
                gen.row(i, t);
                w.writeLong(t.tradeId);
                w.writeString(t.deskName());
                w.writeString(t.bookName());
                w.writeString(t.currencyCode());
                w.writeDate(t.epochDay());
                w.writeString(t.counterpartyName());
                w.writeDouble(t.pnl);
                w.writeDouble(t.notional);
                w.endRow();
            }
        }
        return file;
    }

    @Test
    void infersTheGeneratorSchemaAndStagesEveryTradeExactly(@TempDir Path dir) throws Exception {
        long rows = 5_000;
        Path file = writeTrades(dir.resolve("trades.csv"), rows, 7);
        CsvStagingLoader.Staged staged =
                new CsvStagingLoader(CsvOptions.DEFAULT).stage(file, "trades", null, CsvProgress.NONE);
        TableStaging s = staged.staging();
        assertEquals(TradesGenerator.TRADES, s.schema());
        assertEquals(rows, s.rows());
        assertEquals(rows, staged.summary().rows());
        TradesGenerator gen = new TradesGenerator(7, rows);
        TradeRow t = new TradeRow();
        for (int i = 0; i < rows; i++) {
            gen.row(i, t);
            assertEquals(t.tradeId, s.longs(TradesGenerator.COL_TRADE_ID)[i]);
            assertEquals(t.pnl, s.doubles(TradesGenerator.COL_PNL)[i]);
            assertEquals(t.notional, s.doubles(TradesGenerator.COL_NOTIONAL)[i]);
            assertEquals(
                    s.dictionary(TradesGenerator.COL_DESK).codeOf(t.deskName()), s.codes(TradesGenerator.COL_DESK)[i]);
            assertEquals(
                    s.dictionary(TradesGenerator.COL_TRADE_DATE).codeOf(t.epochDay()),
                    s.codes(TradesGenerator.COL_TRADE_DATE)[i]);
        }
    }

    @Test
    void usesTheDeclaredSchemaUnderTheGivenTableName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("x.csv");
        Files.writeString(file, "a,b\n1,2\n3,4\n");
        TableSchema declared = CsvSchemas.parseDeclaration("ignored", "a int, b double");
        TableStaging s = new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(file, "t", declared, CsvProgress.NONE)
                .staging();
        assertEquals(new TableSchema("t", declared.columns()), s.schema());
        assertEquals(2, s.rows());
        assertEquals(4.0, s.doubles(1)[1]);
    }

    @Test
    void failsOnTheFirstBadRowNamingTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "a,b\n1,2\n3,x\n");
        TableSchema declared = CsvSchemas.parseDeclaration("t", "a long, b double");
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvStagingLoader(CsvOptions.DEFAULT).stage(file, "t", declared, CsvProgress.NONE));
        assertTrue(e.getMessage().startsWith(file + ":3:3: not a number (field b, value \"x\")"), e.getMessage());
    }

    /**
     * A file with NULLs in every inferred type, written as an empty field, a quoted empty field (outside text) and a
     * NULL string, staged with NULL string NA: the same types and the same values, NULL for NULL, as DuckDB's
     * {@code read_csv(nullstr = ['NA', ''])} reads.
     */
    @Test
    void stagesNullsWhereDuckDbReadsThemAndInfersTheSameTypes(@TempDir Path dir) throws Exception {
        SplittableRandom rnd = new SplittableRandom(20261125);
        StringBuilder csv = new StringBuilder("id,n,x,day,s,none\n");
        String[] nullTexts = {"", "NA", "\"\""};
        for (int i = 0; i < 3000; i++) {
            String n = rnd.nextInt(4) == 0 ? nullTexts[rnd.nextInt(3)] : String.valueOf(rnd.nextLong(-1000, 1000));
            String x = rnd.nextInt(5) == 0 ? nullTexts[rnd.nextInt(3)] : String.valueOf(rnd.nextInt(100_000) / 8.0);
            String day = rnd.nextInt(6) == 0 ? nullTexts[rnd.nextInt(3)] : "2024-03-" + (10 + rnd.nextInt(20));
            String text = rnd.nextInt(3) == 0 ? nullTexts[rnd.nextInt(2)] : "\"s, " + rnd.nextInt(50) + "\"";
            String none = rnd.nextBoolean() ? "" : "NA";
            csv.append(i)
                    .append(',')
                    .append(n)
                    .append(',')
                    .append(x)
                    .append(',')
                    .append(day)
                    .append(',');
            csv.append(text).append(',').append(none).append('\n');
        }
        Path file = dir.resolve("nulls.csv");
        Files.writeString(file, csv);
        String duckRead = "read_csv('" + file + "', nullstr = ['NA', ''])";
        CsvStagingLoader.Staged staged = new CsvStagingLoader(CsvOptions.DEFAULT.withNullStrings(List.of("NA")))
                .stage(file, "t", null, CsvProgress.NONE);
        assertEquals(
                "id:long,n:long,x:double,day:date,s:string,none:string",
                staged.staging().schema().declaration());
        try (DuckDb duck = new DuckDb()) {
            assertEquals(
                    "BIGINT BIGINT DOUBLE DATE VARCHAR VARCHAR",
                    duck.query("SELECT string_agg(column_type, ' ') FROM (DESCRIBE SELECT * FROM " + duckRead + ")")
                            .getFirst()[0]);
            int[] nulls =
                    StagedRows.assertSameAsDuckDb(duck, staged.staging(), "SELECT * FROM " + duckRead + " ORDER BY id");
            assertEquals("[0, 722, 610, 463, 1002, 3000]", Arrays.toString(nulls));
        }
    }
}
