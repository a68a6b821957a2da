package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.memory.NodeMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PartitionMoverTest {

    private static final TableSchema SCHEMA = TableSchema.parse("t", "k:string,x:double");
    private static final Dictionary[] DICTS = {Dictionary.ofStrings("a", "b", "c"), null};
    private static final int ROWS = 20_000;

    private static FactTable table(ColumnMemory memory, ThreadWorkerPool pool) {
        TableBuilder.NodeLayout layout = new TableBuilder.NodeLayout(List.of(0), Map.of(0, 0));
        return TableBuilder.build(
                SCHEMA,
                DICTS,
                List.of(new TableBuilder.PartitionSpec("only", ROWS)),
                "test",
                Placement.NODE_LOCAL,
                layout,
                1024,
                memory,
                pool,
                (p, w) -> {
                    for (int r = 0; r < w.rows(); r++) {
                        w.code(0, r, r % 3);
                        w.doubleValue(1, r, r * 0.5);
                    }
                });
    }

    private static String cpusAllowedOfThisThread() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return "";
    }

    @Test
    void copiesOnAThreadOfItsOwnPinnedNearTheTargetWhileTheNodesWorkersAreBusy() throws Exception {
        NumaRuntime rt = NumaRuntime.detect();
        CountDownLatch release = new CountDownLatch(1);
        NodeMemory nodeMemory = rt.openMemory();
        try (NumaColumnMemory memory = new NumaColumnMemory(nodeMemory, rt.statusLine());
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            FactTable t = table(memory, pool);
            Partition p = t.partitions().get(0);
            // the node's only worker runs a long query morsel: a move queued behind it would wait for it
            pool.submit(0, () -> {
                release.await();
                return null;
            });
            AtomicReference<String> thread = new AtomicReference<>();
            AtomicReference<String> cpus = new AtomicReference<>();
            Partition copy = assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> PartitionMover.copy(p, 0, 0, memory, n -> {
                        thread.set(Thread.currentThread().getName());
                        try {
                            cpus.set(cpusAllowedOfThisThread());
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }));
            release.countDown();
            try {
                assertEquals("numacube-move-n0", thread.get());
                assertEquals(nodeMemory.fillerCpus(0).toList(), cpus.get(), "pinned to node 0's filler CPUs");
                assertNotEquals(p.block().address(), copy.block().address());
                assertEquals(0, copy.memoryNode());
                for (int r = 0; r < ROWS; r += 997) {
                    assertEquals(p.doubleValue(1, r), copy.doubleValue(1, r));
                }
            } finally {
                copy.close();
                t.close();
            }
            assertEquals(0, memory.liveBytes());
        }
    }

    @Test
    void aPaceThatThrowsStopsTheMoveFreesTheCopyAndRethrows() {
        try (ArenaColumnMemory memory = new ArenaColumnMemory();
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            FactTable t = table(memory, pool);
            long tableBytes = memory.liveBytes();
            IllegalStateException stop = new IllegalStateException("the cube is closing");
            try {
                IllegalStateException e = assertThrows(
                        IllegalStateException.class,
                        () -> PartitionMover.copy(t.partitions().get(0), 0, 0, memory, n -> {
                            throw stop;
                        }));
                assertSame(stop, e);
                assertEquals(tableBytes, memory.liveBytes(), "the copy was freed");
            } finally {
                t.close();
            }
        }
    }

    @Test
    void movesInPlaceWhereTheKernelAllowsItAndTheTwoVersionsShareOneBlock() {
        NumaRuntime rt = NumaRuntime.detect();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                rt.policySupport().mbind(),
                () -> "mbind refused here: " + rt.policySupport().refusals());
        try (NumaColumnMemory memory = new NumaColumnMemory(rt.openMemory(), rt.statusLine());
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            FactTable t = table(memory, pool);
            Partition p = t.partitions().get(0);
            long bytes = memory.liveBytes();
            long[] paced = new long[1];
            PartitionMover.Moved moved = PartitionMover.move(p, 0, 0, memory, n -> paced[0] += n);
            Partition there = moved.partition();
            assertEquals(PartitionMover.How.IN_PLACE, moved.how());
            assertEquals(null, moved.refusal());
            assertEquals(p.block().address(), there.block().address());
            assertEquals(bytes, memory.liveBytes(), "no second copy");
            assertEquals(p.byteSize(), paced[0]);
            org.junit.jupiter.api.Assertions.assertTrue(
                    there.block().placementApplied().contains("moved in place"),
                    there.block().placementApplied());
            t.close();
            for (int r = 0; r < ROWS; r += 997) {
                assertEquals(r * 0.5, there.doubleValue(1, r), "readable after the old version is gone");
                assertEquals(r % 3, there.code(0, r));
            }
            there.close();
            assertEquals(0, memory.liveBytes(), "freed once, with the last holder");
        }
    }

    @Test
    void copiesWhereTheMemoryCannotMoveInPlaceAndSaysWhy() {
        try (ArenaColumnMemory memory = new ArenaColumnMemory();
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            FactTable t = table(memory, pool);
            Partition p = t.partitions().get(0);
            PartitionMover.Moved moved = PartitionMover.move(p, 0, 0, memory, n -> {});
            try {
                assertEquals(PartitionMover.How.COPIED, moved.how());
                org.junit.jupiter.api.Assertions.assertTrue(
                        moved.refusal().contains("no move in place"), moved.refusal());
                assertNotEquals(p.block().address(), moved.partition().block().address());
                assertEquals(p.doubleValue(1, 19_999), moved.partition().doubleValue(1, 19_999));
            } finally {
                moved.partition().close();
                t.close();
            }
            assertEquals(0, memory.liveBytes());
        }
    }

    @Test
    void aPartitionIsMovedInPlaceOnlyOntoItsOwnMemory() {
        try (ArenaColumnMemory memory = new ArenaColumnMemory();
                ThreadWorkerPool pool = new ThreadWorkerPool(1, 1)) {
            FactTable a = table(memory, pool);
            FactTable b = table(memory, pool);
            try {
                Partition pa = a.partitions().get(0);
                NativeBlock other = b.partitions().get(0).block();
                assertThrows(IllegalArgumentException.class, () -> pa.movedInPlace(other, 0, 0));
            } finally {
                a.close();
                b.close();
            }
        }
    }
}
