package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateCommandTest {

    @Test
    void writesTradesAndFxThatReadBackAsTheGeneratorsTables(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("generate", "--rows", "3K", "--seed", "9", "--out", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("3,000 trades"), run.out());
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        TableStaging trades = loader.stage(dir.resolve("trades.csv"), "trades", null, CsvProgress.NONE)
                .staging();
        assertEquals(TradesGenerator.TRADES, trades.schema());
        assertEquals(3000, trades.rows());
        TradesGenerator gen = new TradesGenerator(9, 3000);
        TradeRow t = new TradeRow();
        for (int i = 0; i < 3000; i++) {
            gen.row(i, t);
            assertEquals(t.pnl, trades.doubles(TradesGenerator.COL_PNL)[i]);
            assertEquals(
                    trades.dictionary(TradesGenerator.COL_COUNTERPARTY).codeOf(t.counterpartyName()),
                    trades.codes(TradesGenerator.COL_COUNTERPARTY)[i]);
        }
        TableStaging fx = loader.stage(dir.resolve("fx.csv"), "fx", null, CsvProgress.NONE)
                .staging();
        assertEquals(TradesGenerator.FX, fx.schema());
        assertEquals(TradesGenerator.CURRENCIES.size(), fx.rows());
        assertEquals(TradesGenerator.rateToUsd(7), fx.doubles(1)[7]);
        TableStaging books = loader.stage(dir.resolve("books.csv"), "books", null, CsvProgress.NONE)
                .staging();
        assertEquals(io.numacube.engine.gen.Books.SCHEMA, books.schema());
        assertEquals(TradesGenerator.BOOKS, books.rows());
        assertTrue(run.out().contains("1000 books"), run.out());
        try (var left = Files.list(dir)) {
            assertFalse(left.anyMatch(f -> f.getFileName().toString().endsWith(".tmp")), "a temporary file was left");
        }
    }

    @Test
    void writesTheSameBytesForTheSameSeedAndOthersForAnother(@TempDir Path dir) throws Exception {
        assertEquals(
                0,
                CliRun.of(
                                "generate",
                                "--rows",
                                "500",
                                "--seed",
                                "1",
                                "--out",
                                dir.resolve("a").toString())
                        .exitCode());
        assertEquals(
                0,
                CliRun.of(
                                "generate",
                                "--rows",
                                "500",
                                "--seed",
                                "1",
                                "--out",
                                dir.resolve("b").toString())
                        .exitCode());
        assertEquals(
                0,
                CliRun.of(
                                "generate",
                                "--rows",
                                "500",
                                "--seed",
                                "2",
                                "--out",
                                dir.resolve("c").toString())
                        .exitCode());
        byte[] a = Files.readAllBytes(dir.resolve("a/trades.csv"));
        assertArrayEquals(a, Files.readAllBytes(dir.resolve("b/trades.csv")));
        assertFalse(java.util.Arrays.equals(a, Files.readAllBytes(dir.resolve("c/trades.csv"))));
    }

    @Test
    void refusesABadRowCountWithExitCodeTwo(@TempDir Path dir) {
        CliRun run = CliRun.of("generate", "--rows", "lots", "--out", dir.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("lots"), run.err());
        assertTrue(!run.err().contains("Exception"), run.err());
    }

    @Test
    void refusesToStartWhatTheDiskCannotHoldAndLeavesNoFile(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("generate", "--rows", "999999B", "--out", dir.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("not enough free space"), run.err());
        try (var files = java.nio.file.Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aRefusedRunRemovesTheDirectoryItMade(@TempDir Path dir) {
        Path made = dir.resolve("new-out");
        CliRun run = CliRun.of("generate", "--rows", "999999B", "--out", made.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(!java.nio.file.Files.exists(made), "left behind: " + made);
    }

    @Test
    void requiresTheOutputDirectory() {
        CliRun run = CliRun.of("generate", "--rows", "10");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--out"), run.err());
    }

    @Test
    void documentsEveryCubeCommand() {
        for (String cmd : new String[] {"generate", "load", "query", "demo"}) {
            CliRun run = CliRun.of(cmd, "--help");
            assertEquals(0, run.exitCode(), cmd);
            assertTrue(run.out().startsWith("Usage: numacube " + cmd), run.out());
        }
    }
}
