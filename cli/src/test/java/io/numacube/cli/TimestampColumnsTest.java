package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TIMESTAMP columns from the command line: inferred, forced by {@code --types}, refused values, every output format. */
class TimestampColumnsTest {

    @Test
    void timestampsAreInferredAndPrintAsDuckDbPrintsThemInEveryFormat(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("e.csv");
        Files.writeString(file, "id,ts\n1,2013-01-01 05:00:00\n2,2013-01-01T05:17:30.250\n3,\n");
        String sql = "SELECT id, ts FROM e ORDER BY id";
        CliRun csv = CliRun.of("query", "--format", "csv", "--table", "e=" + file, sql);
        assertEquals(0, csv.exitCode(), csv.err());
        assertEquals("id,ts\n1,2013-01-01 05:00:00\n2,2013-01-01 05:17:30.25\n3,\n", csv.out());
        assertTrue(csv.err().contains("id LONG, ts TIMESTAMP"), csv.err());
        CliRun json = CliRun.of("query", "--format", "json", "--table", "e=" + file, sql);
        assertEquals(0, json.exitCode(), json.err());
        assertEquals(
                "[{\"id\":1,\"ts\":\"2013-01-0105:00:00\"},{\"id\":2,\"ts\":\"2013-01-0105:17:30.25\"},"
                        + "{\"id\":3,\"ts\":null}]",
                json.out().replaceAll("\\s", ""));
        CliRun table = CliRun.of("query", "--table", "e=" + file, sql);
        assertEquals(0, table.exitCode(), table.err());
        assertEquals(
                "id  ts\n--  ----------------------\n 1  2013-01-01 05:00:00\n 2  2013-01-01 05:17:30.25\n 3  NULL\n",
                table.out());
    }

    @Test
    void typesReadsAColumnAsTimestampAndABadValueNamesFileLineColumnAndTheFix(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("m.csv");
        // dates and timestamps mixed: text to the sniffer (as to DuckDB's), timestamps by --types (a date = midnight)
        Files.writeString(file, "id,ts\n1,2013-01-01\n2,2013-01-01 05:00:00\n3,2013-01-02 00:00:00\n");
        String sql = "SELECT date_trunc('day', ts) AS d, COUNT(*), MAX(ts) FROM m GROUP BY d ORDER BY d";
        CliRun run = CliRun.of("query", "--format", "csv", "--table", "m=" + file, "--types", "m.ts=TIMESTAMP", sql);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "d,count_star(),max(ts)\n2013-01-01 00:00:00,2,2013-01-01 05:00:00\n"
                        + "2013-01-02 00:00:00,1,2013-01-02 00:00:00\n",
                run.out());
        CliRun inferred = CliRun.of("query", "--format", "csv", "--table", "m=" + file, "SELECT MAX(ts) FROM m");
        assertEquals(0, inferred.exitCode(), inferred.err());
        assertTrue(inferred.err().contains("ts STRING"), inferred.err());

        Path bad = tmp.resolve("b.csv");
        Files.writeString(bad, "id,ts\n1,2013-01-01 05:00:00\n2,2013-01-01 25:00:00\n");
        for (String command : new String[] {"query", "load"}) {
            CliRun refused = command.equals("query")
                    ? CliRun.of("query", "--table", "b=" + bad, "--types", "b.ts=TIMESTAMP", "SELECT 1 FROM b")
                    : CliRun.of("load", "--table", "b=" + bad, "--types", "b.ts=TIMESTAMP");
            assertEquals(2, refused.exitCode(), refused.err());
            assertEquals(
                    "numacube: " + bad + ":3:3: not a timestamp (expected yyyy-MM-dd HH:mm:ss[.ffffff]) (field ts,"
                            + " value \"2013-01-01 25:00:00\") — column ts is TIMESTAMP by --types; if the value is"
                            + " right, read it with --types b.ts=VARCHAR\n",
                    refused.err().substring(refused.err().indexOf("numacube: ")),
                    command);
        }
        CliRun schema = CliRun.of("query", "--table", "b=" + bad, "--schema", "b=id LONG, ts TIMESTAMP", "SELECT 1");
        assertEquals(2, schema.exitCode(), schema.err());
        assertTrue(schema.err().contains(bad + ":3:3: not a timestamp"), schema.err());
    }
}
