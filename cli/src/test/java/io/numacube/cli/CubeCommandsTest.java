package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.gen.ReferenceQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load, query and demo commands run in-process against a real cube. */
class CubeCommandsTest {

    private static final int ROWS = 20_000;
    private static final long SEED = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void generate() {
        CliRun run = CliRun.of(
                "generate", "--rows", String.valueOf(ROWS), "--seed", String.valueOf(SEED), "--out", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
    }

    private static String trades() {
        return "trades=" + dir.resolve("trades.csv");
    }

    private static String fx() {
        return "fx=" + dir.resolve("fx.csv");
    }

    @Test
    void queriesOnLoadedCsvFilesMatchQueriesOnGeneratedTradesOfTheSameSeed() throws Exception {
        String[] sql = {
            ReferenceQueries.Q1 + " ORDER BY currency",
            ReferenceQueries.Q2 + " ORDER BY desk",
            ReferenceQueries.Q3 + " ORDER BY desk",
            ReferenceQueries.Q5,
            "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date ORDER BY book, "
                    + "trade_date"
        };
        List<String> csvArgs =
                new ArrayList<>(List.of("query", "--format", "json", "--table", trades(), "--table", fx()));
        List<String> genArgs = new ArrayList<>(List.of(
                "query", "--format", "json", "--generate", String.valueOf(ROWS), "--seed", String.valueOf(SEED)));
        csvArgs.addAll(List.of(sql));
        genArgs.addAll(List.of(sql));
        CliRun fromCsv = CliRun.of(csvArgs.toArray(String[]::new));
        CliRun generated = CliRun.of(genArgs.toArray(String[]::new));
        assertEquals(0, fromCsv.exitCode(), fromCsv.err());
        assertEquals(0, generated.exitCode(), generated.err());
        List<JsonNode> a = documents(fromCsv.out());
        List<JsonNode> b = documents(generated.out());
        assertEquals(sql.length, a.size());
        assertEquals(sql.length, b.size());
        for (int q = 0; q < sql.length; q++) {
            assertTrue(a.get(q).size() > 0, sql[q]);
            assertSameRows(a.get(q), b.get(q), sql[q]);
        }
        // one stats line per query on stderr
        assertEquals(
                sql.length,
                Pattern.compile("morsels: ").matcher(fromCsv.err()).results().count(),
                fromCsv.err());
    }

    /** The JSON documents printed one after another. */
    private static List<JsonNode> documents(String text) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (com.fasterxml.jackson.core.JsonParser p = JSON.createParser(text)) {
            while (p.nextToken() != null) {
                out.add(JSON.readTree(p));
            }
        }
        return out;
    }

    private static void assertSameRows(JsonNode a, JsonNode b, String sql) {
        assertEquals(a.size(), b.size(), sql);
        for (int r = 0; r < a.size(); r++) {
            Iterator<Map.Entry<String, JsonNode>> fa = a.get(r).fields();
            while (fa.hasNext()) {
                Map.Entry<String, JsonNode> e = fa.next();
                JsonNode other = b.get(r).get(e.getKey());
                String where = sql + " row=" + r + " column=" + e.getKey();
                if (e.getValue().isDouble() || (other != null && other.isDouble())) {
                    double x = e.getValue().asDouble();
                    double y = other.asDouble();
                    assertEquals(x, y, Math.max(1e-9, Math.abs(x) * 1e-9), where);
                } else {
                    assertEquals(e.getValue(), other, where);
                }
            }
        }
    }

    /**
     * A Parquet table is recognised by its bytes (the copy is named .dat) and answers as the formulas that wrote it
     * say (see src/test/resources/parquet/README.md); an integer column declared INT can be grouped by.
     */
    @Test
    void queriesAParquetFileRecognisedByItsBytes(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("trades.dat");
        try (var in = CubeCommandsTest.class.getResourceAsStream("/parquet/trades-1000.parquet")) {
            Files.copy(in, file);
        }
        CliRun run = CliRun.of(
                "query",
                "--format",
                "csv",
                "--table",
                "t=" + file,
                "SELECT desk, SUM(pnl), COUNT(*) FROM t WHERE day >= DATE '2024-01-11' GROUP BY desk ORDER BY desk");
        assertEquals(0, run.exitCode(), run.err());
        StringBuilder expected = new StringBuilder("desk,sum(pnl),count_star()\n");
        for (int d = 0; d < 7; d++) {
            double sum = 0;
            long count = 0;
            for (int i = d; i < 1000; i += 7) {
                if (i % 40 >= 10) {
                    sum += i * 0.5;
                    count++;
                }
            }
            expected.append("desk")
                    .append(d)
                    .append(',')
                    .append(sum)
                    .append(',')
                    .append(count)
                    .append('\n');
        }
        assertEquals(expected.toString(), run.out());
        assertTrue(run.err().contains("t columns (inferred): desk STRING, book LONG, pnl DOUBLE, day DATE"), run.err());
        CliRun grouped = CliRun.of(
                "query",
                "--format",
                "csv",
                "--schema",
                "t=desk string, book int, pnl double, day date",
                "--table",
                "t=" + file,
                "SELECT book, COUNT(*) FROM t GROUP BY book ORDER BY book LIMIT 2");
        assertEquals(0, grouped.exitCode(), grouped.err());
        assertEquals("book,count_star()\n0,77\n1,77\n", grouped.out());
    }

    /**
     * A directory or a glob loads its files, sorted by name, as one table; a file of another format, another
     * header or a glob that matches nothing is an error naming it.
     */
    @Test
    void aDirectoryOrAGlobLoadsItsFilesAsOneTable(@TempDir Path tmp) throws Exception {
        Path csvDir = Files.createDirectories(tmp.resolve("csv"));
        Files.writeString(csvDir.resolve("a.csv"), "k,v\nx,1\ny,2\n");
        Files.writeString(csvDir.resolve("b.csv"), "v,k\n10,x\n");
        Files.writeString(csvDir.resolve(".hidden.csv"), "k,v\nx,1000\n");
        CliRun dir = CliRun.of(
                "query", "--format", "csv", "--table", "t=" + csvDir, "SELECT k, SUM(v) FROM t GROUP BY k ORDER BY k");
        assertEquals(0, dir.exitCode(), dir.err());
        assertEquals("k,sum(v)\nx,11\ny,2\n", dir.out());

        Path pq = Files.createDirectories(tmp.resolve("pq"));
        for (String name : List.of("part-1.parquet", "part-2.parquet")) {
            try (var in = CubeCommandsTest.class.getResourceAsStream("/parquet/trades-1000.parquet")) {
                Files.copy(in, pq.resolve(name));
            }
        }
        CliRun glob = CliRun.of(
                "query", "--format", "csv", "--table", "t=" + pq.resolve("part-*.parquet"), "SELECT COUNT(*) FROM t");
        assertEquals(0, glob.exitCode(), glob.err());
        assertEquals("count_star()\n2000\n", glob.out());

        Path zero = Files.createFile(tmp.resolve("zero.parquet"));
        CliRun empty = CliRun.of("load", "--table", "t=" + zero);
        assertEquals(2, empty.exitCode(), empty.err());
        assertTrue(empty.err().contains(zero + ": an empty file (0 bytes) is no Parquet file"), empty.err());
        Files.createFile(pq.resolve("part-0.parquet"));
        CliRun emptyInDirectory = CliRun.of("load", "--table", "t=" + pq);
        assertEquals(2, emptyInDirectory.exitCode(), emptyInDirectory.err());
        assertTrue(
                emptyInDirectory.err().contains(pq.resolve("part-0.parquet") + ": an empty file (0 bytes)"),
                emptyInDirectory.err());
        Files.delete(pq.resolve("part-0.parquet"));

        Files.writeString(pq.resolve("part-3.parquet"), "k,v\n1,2\n");
        CliRun mixed = CliRun.of("load", "--table", "t=" + pq);
        assertEquals(2, mixed.exitCode(), mixed.err());
        assertTrue(mixed.err().contains(pq.resolve("part-3.parquet") + " is not Parquet"), mixed.err());

        Files.writeString(csvDir.resolve("c.csv"), "k,w\nx,1\n");
        CliRun header = CliRun.of("load", "--table", "t=" + csvDir);
        assertEquals(2, header.exitCode(), header.err());
        assertTrue(header.err().contains(csvDir.resolve("c.csv").toString()), header.err());

        CliRun none = CliRun.of("load", "--table", "t=" + tmp.resolve("nothing-*.csv"));
        assertEquals(2, none.exitCode(), none.err());
        assertTrue(none.err().contains("no file matches " + tmp.resolve("nothing-*.csv")), none.err());

        CliRun globbedDirectory = CliRun.of("load", "--table", "t=" + tmp.resolve("p*/part-1.parquet"));
        assertEquals(2, globbedDirectory.exitCode(), globbedDirectory.err());
        assertTrue(globbedDirectory.err().contains("a glob may only be in the file name"), globbedDirectory.err());
    }

    @Test
    void printsAnAlignedTableByDefault() {
        CliRun run = CliRun.of("query", "--table", trades(), ReferenceQueries.Q1 + " ORDER BY currency");
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals(2 + 20, lines.length, run.out());
        assertTrue(lines[0].startsWith("currency"), lines[0]);
        assertTrue(lines[1].matches("-+ +-+"), lines[1]);
        assertTrue(lines[2].startsWith("AUD "), lines[2]);
        int width = lines[1].length();
        for (int i = 2; i < lines.length; i++) {
            assertEquals(width, lines[i].length(), "numbers are right-aligned to the rule: " + lines[i]);
        }
    }

    @Test
    void reportsABadCsvRowAsOneLineWithFileLineAndColumnAndExitCodeTwo() throws Exception {
        Path bad = dir.resolve("bad.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("trades.csv")));
        // beyond the 10,000 rows that schema inference samples, so notional is inferred as a double
        String row = lines.get(15_000);
        int comma = row.lastIndexOf(',');
        lines.set(15_000, row.substring(0, comma) + ",12x5");
        Files.write(bad, lines);
        CliRun run = CliRun.of("load", "--table", "trades=" + bad);
        assertEquals(2, run.exitCode(), run.err());
        String[] errLines = run.err().split("\n");
        assertEquals(1, errLines.length, run.err());
        assertTrue(
                errLines[0].startsWith("numacube: " + bad + ":15001:" + (comma + 2)
                        + ": not a number (field notional, value \"12x5\") — the column types were inferred"),
                errLines[0]);
    }

    @Test
    void reportsBadSqlWithItsPositionAndExitCodeTwo() {
        CliRun run = CliRun.of(
                "query",
                "--generate",
                "1000",
                "SELECT desk, SUM(pnl) FROM trades GROUP BY desk",
                "SELECT desk, SUMM(pnl) FROM trades GROUP BY desk");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.out().contains("DESK-00"), "the first query still ran: " + run.out());
        Matcher m = Pattern.compile("(line|column|position|col|at)\\D{0,3}\\d+").matcher(run.err());
        assertTrue(m.find(), run.err());
    }

    @Test
    void runsTheStatementsOfASqlFileAfterTheArguments(@TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("q.sql");
        Files.writeString(
                script,
                "-- two queries\nSELECT COUNT(*) FROM trades;\n"
                        + "SELECT currency FROM trades WHERE currency IN ('EUR', 'USD') GROUP BY currency ORDER BY currency;\n");
        CliRun run = CliRun.of(
                "query", "--format", "csv", "--generate", "2000", "-f", script.toString(), "SELECT COUNT(*) FROM fx");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                List.of("count_star()", "20", "count_star()", "2000", "currency", "EUR", "USD"),
                run.out().lines().toList());
    }

    @Test
    void anErrorInASqlFileNamesTheFileLineAndColumn(@TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("q.sql");
        Files.writeString(
                script,
                "SELECT COUNT(*) FROM trades;\n-- the desks\nSELECT desk,\n  SUMM(pnl) FROM trades GROUP BY desk;\n");
        CliRun run = CliRun.of("query", "--generate", "1000", "-f", script.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("numacube: " + script + ":4:3: unknown function SUMM"), run.err());
        CliRun missing = CliRun.of(
                "query", "--generate", "1000", "-f", tmp.resolve("absent.sql").toString());
        assertEquals(2, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("error=no such file or directory"), missing.err());
        assertTrue(!missing.err().contains("Exception"), missing.err());
    }

    @Test
    void everyCommandThatPrintsResultsFailsWithExitCodeOneWhenStdoutCannotBeWritten(@TempDir Path tmp) {
        String[][] commands = {
            {
                "query",
                "--table",
                trades(),
                "SELECT desk, COUNT(*) FROM trades GROUP BY desk",
                "SELECT COUNT(*) FROM trades"
            },
            {"load", "--table", trades()},
            {"demo", "--rows", "1000"},
            {"generate", "--rows", "100", "--out", tmp.toString()},
            {"doctor"}
        };
        for (String[] args : commands) {
            CliRun run = CliRun.toAFullDisk(args);
            assertEquals(1, run.exitCode(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.err().contains("numacube: cannot write the results to stdout: error="), run.err());
            // one line, once: a query batch stops at its first result that could not be written
            assertEquals(
                    1, run.err().lines().filter(l -> l.startsWith("numacube:")).count(), run.err());
        }
    }

    @Test
    void aSqlFileThatIsNotUtf8IsNamedWithItsLineAndByteOffset(@TempDir Path tmp) throws Exception {
        Path sql = tmp.resolve("latin1.sql");
        // "SELECT 1;\nSELECT 'caf\u00e9'" in ISO-8859-1: the é (0xe9) is byte 21, line 2, column 12
        Files.write(
                sql,
                "SELECT 1;\nSELECT 'caf\u00e9' FROM trades".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        CliRun run = CliRun.of("query", "--table", trades(), "-f", sql.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "numacube: " + sql + ":2:12: the SQL file is not valid UTF-8 text: byte offset 21 (byte 0xe9) — "
                        + "save it as UTF-8\n",
                run.err());
    }

    @Test
    void aJsonReportPathThatCannotBeWrittenIsRefusedBeforeTheWork(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-dir/report.json");
        for (String[] args : new String[][] {
            {"load", "--table", trades(), "--json", missing.toString()},
            {"demo", "--rows", "1000", "--json", missing.toString()}
        }) {
            CliRun run = CliRun.of(args);
            assertEquals(2, run.exitCode(), run.err());
            assertEquals(
                    "numacube: cannot write --json " + missing + ": its directory does not exist — create it "
                            + "first\n",
                    run.err());
            assertEquals("", run.out(), "nothing ran before the check");
        }
    }

    @Test
    void aMissingColumnGetsNoHintAboutAColumnWhoseNameStartsTheSame(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("t.csv");
        Files.writeString(file, "k,v\n1,10\n2,20\n3,\n");
        CliRun run = CliRun.of("query", "--table", "t=" + file, "SELECT k FROM t WHERE kk > 2");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("no such column: column=kk tables=t at line 1:23"), run.err());
        assertFalse(run.err().contains("stored plain"), run.err());
        assertFalse(run.err().contains("inferred as"), run.err());
    }

    @Test
    void reportsInferredTypesAndATypeErrorNamesTheValueThatMadeTheColumnText(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("mixed.csv");
        Files.writeString(file, "k,v,w\na,1,x\nb,9223372036854775808,1\n");
        CliRun run = CliRun.of("query", "--table", "t=" + file, "SELECT k, SUM(w) FROM t GROUP BY k");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("-- t columns (inferred): k STRING, v DOUBLE, w STRING\n"), run.err());
        assertTrue(
                run.err()
                        .contains("-- note: column v is DOUBLE: value \"9223372036854775808\" at " + file
                                + ":3 is outside the 64-bit integer range"),
                run.err());
        assertTrue(
                run.err()
                        .contains("w is string at line 1:15 — column w of table t was inferred as STRING (value "
                                + "\"x\" at " + file
                                + ":2 is not a number, and 1 of 2 sampled values are not (at most 1% may be)); to "
                                + "read it as another type: --types t.w=TYPE (VARCHAR (TEXT), BIGINT (INTEGER, INT),"
                                + " DOUBLE (FLOAT), DECIMAL(p,s) (p at most 18), DATE, TIMESTAMP or BOOLEAN)"),
                run.err());
        CliRun load = CliRun.of("load", "--table", "t=" + file);
        assertEquals(0, load.exitCode(), load.err());
        assertTrue(
                load.out().contains("  note: column w is STRING: value \"x\" at " + file + ":2 is not a number"),
                load.out());
    }

    /** Before: the load or generation ran until the kernel's OOM killer ended it (exit 137, no message). */
    @Test
    void refusesToGenerateOrLoadMoreThanMaxMemoryBeforeStarting() {
        CliRun gen = CliRun.of("query", "--generate", "10M", "--max-memory", "100M", "SELECT COUNT(*) FROM trades");
        assertEquals(2, gen.exitCode(), gen.err());
        assertEquals(
                "numacube: not enough memory: 10,000,000 generated trades (29 bytes a row) needs at least 276.6 MiB "
                        + "placed, more than --max-memory 100.0 MiB — generate fewer rows or raise --max-memory\n",
                gen.err());
        CliRun load = CliRun.of("load", "--table", trades(), "--max-memory", "64K");
        assertEquals(2, load.exitCode(), load.err());
        assertTrue(load.err().startsWith("numacube: not enough memory: table trades (about "), load.err());
        assertTrue(
                load.err().endsWith("more than --max-memory 64.0 KiB — load a smaller file or raise --max-memory\n"),
                load.err());
        CliRun demo = CliRun.of("demo", "--rows", "1M", "--max-memory", "1M");
        assertEquals(2, demo.exitCode(), demo.err());
    }

    @Test
    void refusesASchemaForATableThatIsNotLoaded() {
        CliRun run = CliRun.of("load", "--table", trades(), "--schema", "fx=currency STRING, rate_to_usd DOUBLE");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("table=fx"), run.err());
    }

    @Test
    void refusesATableNamedTwice() {
        CliRun run = CliRun.of("load", "--table", trades(), "--table", "trades=" + dir.resolve("fx.csv"));
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(1, run.err().lines().filter(l -> !l.isBlank()).count(), run.err());
        assertTrue(run.err().contains("--table names table trades twice"), run.err());
    }

    @Test
    void refusesATableWithoutAName() {
        CliRun run = CliRun.of("load", "--table", dir.resolve("trades.csv").toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--table takes NAME=FILE"), run.err());
    }

    @Test
    void refusesAPartitionColumnThatNoTableHas() {
        CliRun csv = CliRun.of("load", "--table", trades(), "--table", fx(), "--partition-by", "dsk");
        assertEquals(2, csv.exitCode(), csv.err());
        assertTrue(csv.err().contains("--partition-by names a column that no table has: column=dsk"), csv.err());
        CliRun generated = CliRun.of("query", "--generate", "1000", "--partition-by", "dsk", ReferenceQueries.Q1);
        assertEquals(2, generated.exitCode(), generated.err());
        assertTrue(generated.err().contains("column=dsk"), generated.err());
    }

    @Test
    void aLookupTableWithoutThePartitionColumnIsCutIntoRowRanges() {
        CliRun run = CliRun.of("load", "--table", trades(), "--table", fx(), "--partition-by", "desk");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("no column desk"), run.out());
    }

    @Test
    void loadPrintsRowsPartitionsAndPlacementPerTable() {
        CliRun run = CliRun.of(
                "load", "--table", trades(), "--table", fx(), "--schema", "fx=currency STRING, rate_to_usd DOUBLE");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("table trades: 20,000 rows"), run.out());
        assertTrue(run.out().contains("table fx: 20 rows"), run.out());
        assertTrue(run.out().contains("pages on node"), run.out());
        assertTrue(
                run.out()
                        .contains("schema (inferred): trade_id:long,desk:string,book:string,currency:string,"
                                + "trade_date:date,counterparty:string,pnl:double,notional:double"),
                run.out());
    }

    @Test
    void loadWritesAJsonReportWithEveryPartition(@TempDir Path out) throws Exception {
        Path report = out.resolve("load.json");
        CliRun run = CliRun.of("load", "--table", trades(), "--partitions", "3", "--json", report.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode j = JSON.readTree(report.toFile());
        assertEquals("trades", j.get("tables").get(0).get("table").asText());
        assertEquals(ROWS, j.get("tables").get(0).get("rows").asLong());
        assertEquals(
                Files.size(dir.resolve("trades.csv")),
                j.get("tables").get(0).get("bytes_read").asLong());
        assertTrue(j.get("tables").get(0).get("schema_inferred").asBoolean());
        assertEquals(3, j.get("partitions").size());
        long rows = 0;
        for (JsonNode p : j.get("partitions")) {
            rows += p.get("rows").asLong();
            assertTrue(p.has("pages_on_node_pct") && p.has("node") && p.has("bytes"), p.toString());
        }
        assertEquals(ROWS, rows);
    }

    @Test
    void demoRefusesANegativeTop() {
        CliRun run = CliRun.of("demo", "--rows", "1000", "--top", "-1");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--top must be 0 or more") && run.err().contains("top=-1"), run.err());
        assertTrue(run.out().isEmpty(), run.out());
    }

    @Test
    void demoWritesTheJsonTheMultiNodeStageReads(@TempDir Path out) throws Exception {
        Path report = out.resolve("demo.json");
        CliRun run = CliRun.of("demo", "--rows", "30000", "--seed", "3", "--json", report.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("runtime: numa="), run.out());
        for (int q = 1; q <= 5; q++) {
            assertTrue(run.out().contains("Q" + q + ": "), run.out());
        }
        JsonNode j = JSON.readTree(report.toFile());
        assertTrue(j.get("runtime").asText().startsWith("numa="));
        JsonNode parts = j.get("partitions");
        assertTrue(parts.size() > 0);
        long tradeRows = 0;
        for (JsonNode p : parts) {
            for (String key : List.of("id", "node", "rows", "bytes", "pages_on_node_pct")) {
                assertTrue(p.has(key), key + " in " + p);
            }
            if (p.get("table").asText().equals("trades")) {
                tradeRows += p.get("rows").asLong();
            }
        }
        assertEquals(30000, tradeRows);
        JsonNode queries = j.get("queries");
        assertEquals(5, queries.size());
        for (JsonNode q : queries) {
            for (String key : List.of("name", "sql", "seconds", "rows", "morsels", "morsels_home", "morsels_stolen")) {
                assertTrue(q.has(key), key + " in " + q);
            }
            assertEquals(
                    q.get("morsels").asLong(),
                    q.get("morsels_home").asLong() + q.get("morsels_stolen").asLong(),
                    q.toString());
            double best = q.get("best_run_morsels_home_pct").asDouble();
            assertTrue(
                    best
                                    >= 100.0
                                                    * q.get("morsels_home").asLong()
                                                    / q.get("morsels").asLong()
                                            - 0.05
                            && best <= 100,
                    "the best run's share is at least the share over all runs: " + q);
        }
        assertEquals(ReferenceQueries.Q5, queries.get(4).get("sql").asText());
        assertTrue(
                j.get("skew").get("partition").asDouble() >= 1.0, j.get("skew").toString());
        assertEquals(10, queries.get(4).get("rows").asLong());
    }

    @Test
    void passesPartitioningAndPlacementOptionsToTheCube() {
        CliRun run = CliRun.of(
                "load",
                "--table",
                trades(),
                "--partition-by",
                "currency",
                "--partitions",
                "4",
                "--placement",
                "interleave");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("placement=interleave"), run.out());
        assertTrue(run.out().contains("table trades: 20,000 rows, 4 partitions by currency,"), run.out());
        assertTrue(run.out().contains("currency="), run.out());
    }

    @Test
    void givesTheSameAnswerWithOneThreadAndNoStealing() throws Exception {
        String sql = ReferenceQueries.Q2 + " ORDER BY desk";
        CliRun one =
                CliRun.of("query", "--format", "json", "--generate", "5000", "--threads", "1", "--no-stealing", sql);
        CliRun many = CliRun.of("query", "--format", "json", "--generate", "5000", sql);
        assertEquals(0, one.exitCode(), one.err());
        assertEquals(0, many.exitCode(), many.err());
        assertSameRows(documents(one.out()).getFirst(), documents(many.out()).getFirst(), sql);
    }

    @Test
    void explainsThePlanOnStderrWhenAsked() {
        CliRun run = CliRun.of("query", "--generate", "1000", "--explain", ReferenceQueries.Q2);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                1,
                run.err()
                        .lines()
                        .filter(l -> l.startsWith("-- plan: ") && l.length() > 10)
                        .count(),
                run.err());
        assertTrue(!run.out().contains("-- plan"), run.out());
        assertTrue(
                run.err()
                        .lines()
                        .anyMatch(l -> l.matches("-- time: plan [0-9.]+ ms, scan [0-9.]+ ms, finish [0-9.]+ ms,"
                                + " parse and bind -?[0-9.]+ ms")),
                run.err());
    }

    @Test
    void refusesAnUnknownPlacementWithExitCodeTwo() {
        CliRun run = CliRun.of("query", "--generate", "100", "--placement", "everywhere", ReferenceQueries.Q1);
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("unknown placement"), run.err());
    }

    @Test
    void readsADeclaredSchemaWithAnotherDelimiter(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("p.csv");
        Files.writeString(
                file,
                "region;amount;day\n\"North, East\";1.5;2025-01-02\nSouth;2;2025-01-03\n"
                        + "\"North, East\";3;2025-01-03\n");
        CliRun run = CliRun.of(
                "query",
                "--format",
                "csv",
                "--delimiter",
                ";",
                "--table",
                "p=" + file,
                "--schema",
                "p=region STRING, amount DOUBLE, day DATE",
                "SELECT region, SUM(amount), COUNT(*) FROM p GROUP BY region ORDER BY region");
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals(3, lines.length, run.out());
        assertEquals("\"North, East\",4.5,2", lines[1]);
        assertEquals("South,2.0,1", lines[2]);
    }

    @Test
    void groupsByAnIntegerColumnOfFewOrManyValues(@TempDir Path tmp) throws Exception {
        // an integer column of few values is coded, so it groups as it is
        Path few = tmp.resolve("ints.csv");
        Files.writeString(few, "book,pnl\n1,2.5\n2,3\n1,4\n");
        CliRun coded = CliRun.of(
                "query",
                "--format",
                "csv",
                "--table",
                "t=" + few,
                "SELECT book, SUM(pnl) FROM t GROUP BY book ORDER BY 1");
        assertEquals(0, coded.exitCode(), coded.err());
        assertTrue(coded.out().endsWith("\n1,6.5\n2,3.0\n"), coded.out());
        // one of more than 65,536 values is stored plain, and grouping by it codes it at query time
        StringBuilder csv = new StringBuilder("id,pnl\n");
        for (int i = 0; i < 70_000; i++) {
            csv.append(i).append(',').append(i % 7).append('\n');
        }
        Path many = tmp.resolve("ids.csv");
        Files.writeString(many, csv);
        CliRun inferred = CliRun.of(
                "query",
                "--format",
                "csv",
                "--table",
                "t=" + many,
                "SELECT COUNT(*), SUM(p) FROM (SELECT id, SUM(pnl) AS p FROM t GROUP BY id) g");
        assertEquals(0, inferred.exitCode(), inferred.err());
        assertTrue(inferred.out().endsWith("\n70000,210000\n"), inferred.out());
        CliRun declared = CliRun.of(
                "query",
                "--format",
                "csv",
                "--table",
                "t=" + many,
                "--schema",
                "t=id INT, pnl DOUBLE",
                "SELECT COUNT(*) FROM (SELECT id, SUM(pnl) AS p FROM t GROUP BY id) g");
        assertEquals(0, declared.exitCode(), declared.err());
        assertTrue(declared.out().endsWith("\n70000\n"), declared.out());
    }

    /**
     * NULL in: an empty field and a {@code --null} string are NULL, never equal to a value, and a quoted {@code ""} is
     * the empty string; without {@code --null}, NA is text.
     */
    @Test
    void readsEmptyFieldsAndNullStringsFromCsvAsNull(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("n.csv");
        Files.writeString(file, "desk,day,pnl\nA,2025-01-02,1\n,,\nNA,NA,3\n\"\",\"\",4\nA,2025-01-03,NA\n");
        String sql = "SELECT COUNT(*), SUM(pnl) FROM t WHERE desk = 'NA'";
        String empty = "SELECT COUNT(*) FROM t WHERE desk = ''";
        CliRun na = CliRun.of("query", "--format", "csv", "--null", "NA", "--table", "t=" + file, sql, empty);
        assertEquals(0, na.exitCode(), na.err());
        assertTrue(na.err().contains("-- t columns (inferred): desk STRING, day DATE, pnl LONG"), na.err());
        assertEquals("count_star(),sum(pnl)\n0,\ncount_star()\n1\n", na.out());
        Path text = tmp.resolve("text.csv");
        Files.writeString(text, "desk,pnl\nA,1\nNA,3\n");
        CliRun without = CliRun.of("query", "--format", "csv", "--table", "t=" + text, sql);
        assertEquals(0, without.exitCode(), without.err());
        assertEquals("count_star(),sum(pnl)\n1,3\n", without.out());
    }

    /**
     * NULL out, in every format and type, as DuckDB writes it: NULL in the table, an empty field in CSV, null in JSON.
     * Aggregates over no rows are NULL.
     */
    @Test
    void printsNullInEveryFormat(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("t.csv");
        Files.writeString(file, "desk,day,pnl,x\nA,2025-01-02,1,1.5\n");
        String sql = "SELECT MIN(desk), MAX(day), SUM(pnl), AVG(x) FROM t WHERE desk = 'Z'";
        String[] load = {"query", "--table", "t=" + file, "--format"};
        CliRun table = CliRun.of(concat(load, "table", sql));
        assertEquals(0, table.exitCode(), table.err());
        assertEquals(
                "min(desk)  max(day)  sum(pnl)  avg(x)\n---------  --------  --------  ------\n"
                        + "NULL       NULL          NULL    NULL\n",
                table.out());
        CliRun csv = CliRun.of(concat(load, "csv", sql));
        assertEquals("min(desk),max(day),sum(pnl),avg(x)\n,,,\n", csv.out(), csv.err());
        CliRun json = CliRun.of(concat(load, "json", sql));
        JsonNode row = new ObjectMapper().readTree(json.out()).get(0);
        assertEquals(4, row.size(), json.out());
        row.forEach(v -> assertTrue(v.isNull(), json.out()));
    }

    /**
     * A query grouped by a text column with NULLs: the NULL group last, as in DuckDB, printed as NULL, an empty field
     * and null.
     */
    @Test
    void printsTheNullGroupOfATextColumnInEveryFormat(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("n.csv");
        Files.writeString(file, "desk,pnl\nA,1\n,2\nNA,3\n\"\",4\nA,5\n");
        String sql = "SELECT desk, COUNT(*), SUM(pnl) FROM t GROUP BY desk ORDER BY desk";
        String[] load = {"query", "--null", "NA", "--table", "t=" + file, "--format"};
        CliRun table = CliRun.of(concat(load, "table", sql));
        assertEquals(
                "desk  count_star()  sum(pnl)\n----  ------------  --------\n                 1         4\n"
                        + "A                2         6\nNULL             2         5\n",
                table.out(),
                table.err());
        CliRun csv = CliRun.of(concat(load, "csv", sql));
        assertEquals("desk,count_star(),sum(pnl)\n\"\",1,4\nA,2,6\n,2,5\n", csv.out(), csv.err());
        CliRun json = CliRun.of(concat(load, "json", sql));
        JsonNode rows = new ObjectMapper().readTree(json.out());
        assertEquals("", rows.get(0).get("desk").asText());
        assertTrue(rows.get(2).get("desk").isNull(), json.out());
    }

    @Test
    void refusesANullStringThatNoUnquotedFieldCouldHold(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("n.csv");
        Files.writeString(file, "a,b\n1,2\n");
        CliRun run = CliRun.of("load", "--null", "a,b", "--table", "t=" + file);
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "numacube: a CSV NULL string must be text an unquoted field can hold: null=\"a,b\" holds the"
                        + " delimiter — use e.g. NA, NULL or \\N\n",
                run.err());
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
