package io.numacube.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.Progress;
import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TPC-H files at a tiny scale factor: their row counts, the cache, and CSV and Parquet loading alike. */
class TpchDataTest {

    private static final double SF = 0.01;

    @TempDir
    static Path root;

    private static TpchData data;

    @BeforeAll
    static void generate() throws Exception {
        data = TpchData.ensure(root, SF, 2, new Progress(new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void writesEveryTableWithTheSpecsRowCountsAtScaleFactorOneHundredth() throws Exception {
        Map<String, Long> expected = Map.of(
                "region", 5L,
                "nation", 25L,
                "supplier", 100L,
                "customer", 1_500L,
                "part", 2_000L,
                "partsupp", 8_000L,
                "orders", 15_000L,
                "lineitem", 60_175L);
        for (TpchSchema t : TpchSchema.TABLES) {
            assertEquals(expected.get(t.name()), data.rows(t.name()), t.name());
            long lines;
            try (var l = Files.lines(data.csv(t.name()), StandardCharsets.UTF_8)) {
                lines = l.count();
            }
            assertEquals(data.rows(t.name()) + 1, lines, t.name() + ".csv: a header and one line per row");
            assertTrue(Files.size(data.parquet(t.name())) > 0, t.name() + ".parquet");
        }
        assertEquals(
                "l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax,"
                        + "l_returnflag,l_linestatus,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode,"
                        + "l_comment",
                Files.readAllLines(data.csv("lineitem")).getFirst());
        assertTrue(Files.readAllLines(data.csv("lineitem")).get(1).startsWith("1,"), "decimals with two digits");
    }

    @Test
    void aSecondCallUsesTheCacheWithoutWritingAgain() throws Exception {
        long modified = Files.getLastModifiedTime(data.csv("lineitem")).toMillis();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        TpchData again = TpchData.ensure(root, SF, 2, new Progress(new PrintStream(progress, true)));
        assertEquals(data.dir(), again.dir());
        assertEquals(60_175L, again.rows("lineitem"));
        assertEquals(modified, Files.getLastModifiedTime(again.csv("lineitem")).toMillis());
        assertTrue(progress.toString().contains("cached"), progress::toString);
    }

    @Test
    void theCsvAndParquetCopiesLoadToTheSameTable() {
        TpchSchema lineitem = TpchSchema.of("lineitem");
        try (TpchCube fromCsv = TpchCube.open(data, 2);
                TpchCube fromParquet = TpchCube.open(data, 2)) {
            fromCsv.loadCsv(lineitem);
            fromParquet.loadParquet(lineitem);
            assertEquals(fromCsv.cube().schema("lineitem"), fromParquet.cube().schema("lineitem"));
            assertEquals(
                    "DECIMAL(15,2)", fromCsv.cube().schema("lineitem").column(5).typeName());
            String sql = "SELECT * FROM lineitem";
            ResultTable csv = EngineCube.table(fromCsv.query(sql));
            ResultTable parquet = EngineCube.table(fromParquet.query(sql));
            assertEquals(60_175, csv.rowCount());
            ResultComparison same = ResultComparison.compare(csv, parquet, false, 0);
            assertTrue(same.equal(), same::difference);
        }
    }
}
