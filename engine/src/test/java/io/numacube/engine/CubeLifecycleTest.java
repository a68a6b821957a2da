package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CubeLifecycleTest {

    private static Set<Long> mappingStarts() throws Exception {
        Set<Long> starts = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/numa_maps"))) {
            int sp = line.indexOf(' ');
            starts.add(Long.parseUnsignedLong(line.substring(0, sp), 16));
        }
        return starts;
    }

    @Test
    void closeFreesEveryByteAndLeavesNoMappingInNumaMaps() throws Exception {
        Cube cube = Cube.open(CubeOptions.defaults().withMorselRows(4096));
        cube.generateTrades(60_000, 3, ProgressListener.NONE);
        int partitionBlocks = cube.blockRanges().size();
        cube.query("SELECT COUNT(DISTINCT trade_id), COUNT(DISTINCT pnl) FROM trades");
        List<long[]> blocks = cube.blockRanges();
        assertTrue(blocks.size() > partitionBlocks, "the query-time codes' blocks are listed too");
        assertTrue(cube.liveNativeBytes() >= cube.nativeBytes() && cube.nativeBytes() > 0);
        Set<Long> before = mappingStarts();
        long mappedBefore = blocks.stream().filter(b -> before.contains(b[0])).count();
        assertTrue(mappedBefore > 0, "partitions are mmapped, so their start addresses appear in numa_maps");
        cube.close();
        assertEquals(0, cube.liveNativeBytes());
        Set<Long> after = mappingStarts();
        for (long[] b : blocks) {
            assertFalse(after.contains(b[0]), "mapping still present after close: 0x" + Long.toHexString(b[0]));
        }
        assertThrows(NumacubeException.class, () -> cube.query(ReferenceQueries.Q1));
    }

    @Test
    void badSqlGivesOneClearErrorAndLeavesTheCubeQueryable() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
            cube.generateTrades(20_000, 5, ProgressListener.NONE);
            QueryResult before = cube.query(ReferenceQueries.Q1 + " ORDER BY 1");
            var syntax =
                    assertThrows(NumacubeException.class, () -> cube.query("SELECT currency, SUM(pnl FROM trades"));
            assertEquals(NumacubeException.Kind.SYNTAX, syntax.kind());
            assertTrue(syntax.getMessage().contains("line 1:"), syntax.getMessage());
            var window = assertThrows(
                    NumacubeException.class, () -> cube.query("SELECT SUM(pnl) OVER (PARTITION BY desk) FROM trades"));
            assertEquals(NumacubeException.Kind.INVALID_INPUT, window.kind());
            assertTrue(
                    window.getMessage().startsWith("unsupported SQL")
                            && window.getMessage().contains("line 1:"),
                    window.getMessage());
            var leftJoin = assertThrows(
                    NumacubeException.class,
                    () -> cube.query("SELECT desk, SUM(pnl) FROM trades FULL JOIN fx USING (currency) GROUP BY desk"));
            assertTrue(
                    leftJoin.getMessage().contains("FULL JOIN")
                            && leftJoin.getMessage().contains("line 1:"),
                    leftJoin.getMessage());
            var unknown = assertThrows(
                    NumacubeException.class,
                    () -> cube.query("SELECT desk, SUM(pnl) FROM trades WHERE region = 'EU' GROUP BY desk"));
            assertEquals(NumacubeException.Kind.BIND, unknown.kind());
            assertTrue(
                    unknown.getMessage().contains("column=region")
                            && unknown.getMessage().contains("line 1:41"),
                    unknown.getMessage());
            var notGrouped = assertThrows(
                    NumacubeException.class, () -> cube.query("SELECT desk, book, SUM(pnl) FROM trades GROUP BY desk"));
            assertTrue(notGrouped.getMessage().contains("GROUP BY"), notGrouped.getMessage());
            var types = assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(desk) FROM trades"));
            assertEquals(NumacubeException.Kind.BIND, types.kind());
            QueryResult after = cube.query(ReferenceQueries.Q1 + " ORDER BY 1");
            assertEquals(before.rowCount(), after.rowCount());
            for (int r = 0; r < before.rowCount(); r++) {
                assertEquals(before.getString(r, 0), after.getString(r, 0));
                assertEquals(before.getDouble(r, 1), after.getDouble(r, 1), 1e-9 * Math.abs(before.getDouble(r, 1)));
            }
        }
    }

    @Test
    void failedLoadKeepsThePreviousTable() {
        TableSchema schema = TableSchema.parse("t", "k:string,x:double");
        try (Cube cube = Cube.open(
                CubeOptions.defaults().withSimulatedNodes(1).withPartitioning(Partitioning.byDimension("x", 2)))) {
            TableStaging s = new TableStaging(TableSchema.parse("t", "x:string,k:double"));
            s.setString(0, "a");
            s.setDouble(1, 2.5);
            s.endRow();
            cube.loadTable(s);
            long bytes = cube.liveNativeBytes();
            TableStaging bad = new TableStaging(schema);
            bad.setString(0, "b");
            bad.setDouble(1, 1);
            bad.endRow();
            var e = assertThrows(NumacubeException.class, () -> cube.loadTable(bad));
            assertTrue(e.getMessage().contains("column=x"), e.getMessage());
            assertEquals(bytes, cube.liveNativeBytes());
            QueryResult r = cube.query("SELECT x, SUM(k) FROM t GROUP BY x");
            assertEquals("a", r.getString(0, 0));
            assertEquals(2.5, r.getDouble(0, 1));
        }
    }

    @Test
    void replacingATableFreesTheOldOne() {
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            cube.generateTrades(30_000, 1, ProgressListener.NONE);
            long first = cube.liveNativeBytes();
            cube.generateTrades(30_000, 2, ProgressListener.NONE);
            assertEquals(first, cube.liveNativeBytes());
            assertEquals(List.of("books", "fx", "trades"), cube.tables());
        }
    }

    @Test
    void placementVerifiesPagesOnEachPartitionsNode() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withPartitioning(Partitioning.byDimension("desk", 5)))) {
            cube.generateTrades(80_000, 9, ProgressListener.NONE);
            List<PartitionInfo> parts = cube.placement().stream()
                    .filter(p -> p.table().equals("trades"))
                    .toList();
            assertEquals(5, parts.size());
            assertEquals(80_000, parts.stream().mapToLong(PartitionInfo::rows).sum());
            for (PartitionInfo p : parts) {
                assertTrue(p.label().startsWith("desk="), p.label());
                assertTrue(p.pagesOnNodePct() >= 99.0, p.toString());
            }
            TableSkew skew = cube.skew("trades");
            assertEquals(5, skew.partitions());
            assertTrue(skew.partitionSkew() >= 1.0);
        }
    }

    @Test
    void progressReachesTheTotal() {
        long[] last = {0};
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
            cube.generateTrades(200_000, 1, (done, total) -> {
                synchronized (last) {
                    last[0] = Math.max(last[0], done);
                }
                assertEquals(200_000, total);
            });
        }
        assertEquals(200_000, last[0]);
    }
}
