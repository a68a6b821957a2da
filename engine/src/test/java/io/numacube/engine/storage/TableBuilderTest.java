package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableBuilderTest {

    private static final TableSchema SCHEMA = TableSchema.parse("t", "k:string,x:double");
    private static final Dictionary[] DICTS = {Dictionary.ofStrings("a", "b", "c"), null};

    @Test
    void aFillFailureFreesEveryPartitionAlreadyPlaced() {
        NumaRuntime rt = NumaRuntime.detect();
        try (NumaColumnMemory memory = new NumaColumnMemory(rt.openMemory(), rt.statusLine());
                ThreadWorkerPool pool = new ThreadWorkerPool(2, 1)) {
            TableBuilder.NodeLayout layout = new TableBuilder.NodeLayout(List.of(0, 1), Map.of(0, 0, 1, 1));
            List<TableBuilder.PartitionSpec> specs = TableBuilder.rowRanges(40_000, 5);
            var e = assertThrows(
                    NumacubeException.class,
                    () -> TableBuilder.build(
                            SCHEMA, DICTS, specs, "rows", Placement.OS_DEFAULT, layout, 1024, memory, pool, (p, w) -> {
                                if (p == 3) {
                                    throw new NumacubeException(
                                            NumacubeException.Kind.INVALID_INPUT, "bad row in partition 3");
                                }
                                for (int r = 0; r < w.rows(); r++) {
                                    w.code(0, r, r % 3);
                                    w.doubleValue(1, r, r);
                                }
                            }));
            assertEquals("bad row in partition 3", e.getMessage());
            assertEquals(0, memory.liveBytes());
        }
    }

    @Test
    void partitionsAreSpreadOverDataNodesBalancingBytesAndZoneMapped() {
        try (ArenaColumnMemory memory = new ArenaColumnMemory();
                ThreadWorkerPool pool = new ThreadWorkerPool(2, 1)) {
            TableBuilder.NodeLayout layout = new TableBuilder.NodeLayout(List.of(0, 1), Map.of(0, 0, 1, 1));
            List<TableBuilder.PartitionSpec> specs = List.of(
                    new TableBuilder.PartitionSpec("big", 3000),
                    new TableBuilder.PartitionSpec("s1", 1000),
                    new TableBuilder.PartitionSpec("s2", 1000),
                    new TableBuilder.PartitionSpec("s3", 1000));
            FactTable t = TableBuilder.build(
                    SCHEMA, DICTS, specs, "test", Placement.NODE_LOCAL, layout, 100, memory, pool, (p, w) -> {
                        for (int r = 0; r < w.rows(); r++) {
                            w.code(0, r, r < 100 ? 0 : 2);
                            w.doubleValue(1, r, r);
                        }
                    });
            try {
                long onNode0 = t.partitions().stream()
                        .filter(p -> p.homeNode() == 0)
                        .mapToLong(Partition::rows)
                        .sum();
                assertEquals(3000, onNode0, "the big partition alone on one node, the three small ones on the other");
                Partition big = t.partitions().get(0);
                assertEquals(30, big.morselCount());
                assertEquals(0, big.zoneMin(0, 0));
                assertEquals(0, big.zoneMax(0, 0));
                assertEquals(2, big.zoneMin(0, 1));
                assertEquals(2999.0, big.doubleValue(1, 2999));
                assertTrue(memory.liveBytes() > 0);
            } finally {
                t.close();
            }
            assertEquals(0, memory.liveBytes());
        }
    }

    @Test
    void zoneMapsAndPresentCodesOfEveryCodeWidthMatchTheCodesWritten() {
        TableSchema schema = TableSchema.parse("t", "a:string,b:string,c:string");
        int[] sizes = {200, 5_000, 70_000};
        Dictionary[] dicts = new Dictionary[3];
        for (int c = 0; c < 3; c++) {
            String[] values = new String[sizes[c]];
            for (int i = 0; i < values.length; i++) {
                values[i] = String.format("v%06d", i);
            }
            dicts[c] = Dictionary.ofStrings(values, false);
        }
        int rows = 1_050;
        int morselRows = 100;
        java.util.function.IntBinaryOperator codeAt = (c, r) -> (int) ((r * 2_654_435_761L + c * 97L) % sizes[c]);
        try (ArenaColumnMemory memory = new ArenaColumnMemory();
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            TableBuilder.NodeLayout layout = new TableBuilder.NodeLayout(List.of(0), Map.of(0, 0));
            FactTable t = TableBuilder.build(
                    schema,
                    dicts,
                    List.of(new TableBuilder.PartitionSpec("p", rows)),
                    "test",
                    Placement.OS_DEFAULT,
                    layout,
                    morselRows,
                    memory,
                    pool,
                    (p, w) -> {
                        for (int c = 0; c < 3; c++) {
                            for (int r = 0; r < w.rows(); r++) {
                                w.code(c, r, codeAt.applyAsInt(c, r));
                            }
                        }
                    });
            try {
                Partition p = t.partitions().get(0);
                assertEquals(11, p.morselCount());
                for (int c = 0; c < 3; c++) {
                    long[] present = new long[(sizes[c] + 63) / 64];
                    for (int m = 0; m < p.morselCount(); m++) {
                        int min = Integer.MAX_VALUE;
                        int max = Integer.MIN_VALUE;
                        for (int r = m * morselRows; r < Math.min(rows, (m + 1) * morselRows); r++) {
                            int code = codeAt.applyAsInt(c, r);
                            min = Math.min(min, code);
                            max = Math.max(max, code);
                            present[code >>> 6] |= 1L << code;
                        }
                        assertEquals(min, p.zoneMin(c, m), "column " + c + " morsel " + m);
                        assertEquals(max, p.zoneMax(c, m), "column " + c + " morsel " + m);
                    }
                    long[] got = p.presentCodes(c);
                    if (c < 2) {
                        assertTrue(java.util.Arrays.equals(present, 0, present.length, got, 0, present.length));
                    }
                }
            } finally {
                t.close();
            }
        }
    }
}
