package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --types TABLE.COL=TYPE} on {@code query} and {@code load}, and BOOLEAN columns in every output format. */
class TypesOptionTest {

    private static Path accounts(Path tmp) throws Exception {
        Path file = tmp.resolve("accounts.csv");
        // zip is text to the sniffer (a leading zero), active yes/no is text, qty integers
        Files.writeString(file, "zip,active,qty\n007,yes,10\n12345,no,20\n00501,yes,5\n");
        return file;
    }

    @Test
    void aForcedTypeReplacesTheInferredOne(@TempDir Path tmp) throws Exception {
        Path file = accounts(tmp);
        CliRun run = CliRun.of(
                "query",
                "--format",
                "csv",
                "--table",
                "a=" + file,
                "--types",
                "a.zip=BIGINT",
                "--types",
                "A.Active=bool",
                "SELECT active, SUM(zip), COUNT(*) FROM a GROUP BY active ORDER BY active");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("active,sum(zip),count_star()\nfalse,12345,1\ntrue,508,2\n", run.out());
        assertTrue(
                run.err()
                        .contains(
                                "-- a columns (inferred; zip, Active by --types): zip LONG, active BOOLEAN, qty LONG\n"),
                run.err());
        // a bind error on a forced column says where its type came from
        CliRun sum =
                CliRun.of("query", "--table", "a=" + file, "--types", "a.active=BOOLEAN", "SELECT AVG(active) FROM a");
        assertEquals(2, sum.exitCode(), sum.err());
        assertTrue(
                sum.err()
                        .contains("column active of table a is BOOLEAN by --types; to read it as another type: --types"
                                + " a.active=TYPE (VARCHAR (TEXT), BIGINT (INTEGER, INT), DOUBLE (FLOAT), DECIMAL(p,s) (p at most 18), DATE,"
                                + " TIMESTAMP or BOOLEAN)\n"),
                sum.err());
        // without --types the same query groups the text yes/no and cannot sum the zip codes
        CliRun inferred = CliRun.of(
                "query", "--format", "csv", "--table", "a=" + file, "SELECT active, COUNT(*) FROM a GROUP BY 1");
        assertEquals(0, inferred.exitCode(), inferred.err());
        assertTrue(inferred.out().contains("yes,2"), inferred.out());
    }

    @Test
    void aValueThatDoesNotFitTheForcedTypeNamesFileLineColumnValueAndTheOptionThatReadsIt(@TempDir Path tmp)
            throws Exception {
        Path file = tmp.resolve("q.csv");
        Files.writeString(file, "id,qty\n1,10\n2,2.5\n");
        for (String command : new String[] {"query", "load"}) {
            CliRun run = command.equals("query")
                    ? CliRun.of("query", "--table", "q=" + file, "--types", "q.qty=INTEGER", "SELECT 1 FROM q")
                    : CliRun.of("load", "--table", "q=" + file, "--types", "q.qty=INTEGER");
            assertEquals(2, run.exitCode(), run.err());
            assertEquals(
                    "numacube: " + file + ":3:3: not an integer (field qty, value \"2.5\") — column qty is BIGINT by"
                            + " --types; if the value is right, read it with --types q.qty=DOUBLE\n",
                    run.err().substring(run.err().indexOf("numacube: ")),
                    command);
        }
        CliRun bool = CliRun.of("load", "--table", "q=" + file, "--types", "q.id=BOOLEAN");
        assertEquals(2, bool.exitCode(), bool.err());
        assertTrue(
                bool.err()
                        .contains(
                                file + ":3:1: not a boolean (true/false, t/f, yes/no, y/n or 1/0, any case) (field id,"
                                        + " value \"2\") — column id is BOOLEAN by --types; if the value is right, read it with"
                                        + " --types q.id=VARCHAR\n"),
                bool.err());
    }

    @Test
    void anInferredTypeThatAValueBreaksAfterTheSampleNamesTypesAsTheFix(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("late.csv");
        StringBuilder sb = new StringBuilder("k,v\n");
        for (int i = 0; i < 10_050; i++) {
            sb.append("a,").append(i == 10_040 ? "n/a" : String.valueOf(i)).append('\n');
        }
        Files.writeString(file, sb);
        CliRun run = CliRun.of("load", "--table", "late=" + file);
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains(file + ":10042:3: not an integer (field v, value \"n/a\") — the column types were"
                                + " inferred from the first 10000 rows (k:string,v:long); if the value is right, read"
                                + " the column with --types late.v=VARCHAR\n"),
                run.err());
    }

    @Test
    void anUnknownColumnTableOrTypeIsAnErrorListingTheChoices(@TempDir Path tmp) throws Exception {
        Path file = accounts(tmp);
        CliRun column = CliRun.of("load", "--table", "a=" + file, "--types", "a.zipp=VARCHAR");
        assertEquals(2, column.exitCode(), column.err());
        assertEquals(
                "numacube: --types names a column that table a does not have: column=zipp file=" + file
                        + " — its columns are zip, active, qty\n",
                column.err().substring(column.err().indexOf("numacube: ")));
        CliRun table = CliRun.of("load", "--table", "a=" + file, "--types", "b.zip=VARCHAR");
        assertEquals(2, table.exitCode(), table.err());
        assertEquals(
                "numacube: --types names a table that no --table loads: table=b tables=[a] — write TABLE.COLUMN=TYPE"
                        + " with a table of --table\n",
                table.err());
        CliRun type = CliRun.of("load", "--table", "a=" + file, "--types", "a.zip=NUMBER");
        assertEquals(2, type.exitCode(), type.err());
        assertEquals(
                "numacube: unknown column type: type=NUMBER in --types a.zip=NUMBER — use VARCHAR (TEXT), BIGINT"
                        + " (INTEGER, INT), DOUBLE (FLOAT), DECIMAL(p,s) (p at most 18), DATE, TIMESTAMP or BOOLEAN\n",
                type.err());
        CliRun shape = CliRun.of("load", "--table", "a=" + file, "--types", "zip=VARCHAR");
        assertEquals(2, shape.exitCode(), shape.err());
        assertTrue(shape.err().startsWith("numacube: --types takes TABLE.COLUMN=TYPE: value=zip=VARCHAR"), shape.err());
    }

    @Test
    void typesOnAParquetTableIsRefusedSinceTheFileCarriesItsTypes(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("trades.parquet");
        try (var in = TypesOptionTest.class.getResourceAsStream("/parquet/trades-1000.parquet")) {
            Files.copy(in, file);
        }
        CliRun run = CliRun.of("load", "--table", "t=" + file, "--types", "t.book=VARCHAR");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("numacube: --types applies to CSV tables: table t is Parquet (" + file + "), whose"
                                + " file carries its column types — leave --types t.book out, or cast the column where"
                                + " the file is written\n"),
                run.err());
    }

    @Test
    void booleansPrintAsDuckDbPrintsThemInEveryFormat(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("f.csv");
        Files.writeString(file, "id,flag\n1,true\n2,F\n3,\n");
        String sql = "SELECT id, flag FROM f ORDER BY id";
        CliRun csv = CliRun.of("query", "--format", "csv", "--table", "f=" + file, sql);
        assertEquals(0, csv.exitCode(), csv.err());
        assertEquals("id,flag\n1,true\n2,false\n3,\n", csv.out());
        CliRun json = CliRun.of("query", "--format", "json", "--table", "f=" + file, sql);
        assertEquals(0, json.exitCode(), json.err());
        assertEquals(
                "[{\"id\":1,\"flag\":true},{\"id\":2,\"flag\":false},{\"id\":3,\"flag\":null}]",
                json.out().replaceAll("\\s", ""));
        CliRun table = CliRun.of("query", "--table", "f=" + file, sql);
        assertEquals(0, table.exitCode(), table.err());
        // numbers right-aligned, booleans left-aligned, as DuckDB's box renderer aligns them
        assertEquals("id  flag\n--  -----\n 1  true\n 2  false\n 3  NULL\n", table.out());
        // SUM of a BOOLEAN counts its TRUEs and is named as DuckDB names it
        CliRun sum = CliRun.of(
                "query", "--format", "csv", "--table", "f=" + file, "SELECT SUM(flag), flag || '!' FROM f GROUP BY 2");
        assertEquals(0, sum.exitCode(), sum.err());
        assertTrue(sum.out().startsWith("sum(flag),"), sum.out());
        assertTrue(sum.out().contains("\n1,true!\n"), sum.out());
        CliRun load = CliRun.of("load", "--table", "f=" + file);
        assertEquals(0, load.exitCode(), load.err());
        assertTrue(load.out().contains("schema (inferred): id:long,flag:boolean"), load.out());
    }
}
