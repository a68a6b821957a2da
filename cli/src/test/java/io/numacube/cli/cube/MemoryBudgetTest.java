package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.binding.CgroupMemoryLimit;
import io.numacube.numa.topology.NodeAvailableMemory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    private static final long GIB = 1L << 30;
    private static final List<NodeAvailableMemory> TWO_NODES = List.of(
            new NodeAvailableMemory(0, 10 * GIB, 12 * GIB, "/sys/devices/system/node/node0/meminfo"),
            new NodeAvailableMemory(1, 2 * GIB, 3 * GIB, "/sys/devices/system/node/node1/meminfo"));

    private static String refusal(MemoryBudget b, long placed, long staging, List<Integer> nodes) {
        return assertThrows(NumacubeException.class, () -> b.check("the data", placed, staging, nodes, "load less"))
                .getMessage();
    }

    @Test
    void refusesWhenANodesShareDoesNotFitThoughTheSumWould() {
        MemoryBudget b = new MemoryBudget(TWO_NODES, Optional.empty(), 8 * GIB, 8 * GIB, null);
        assertEquals(
                "not enough memory: the data needs at least 4.0 GiB placed on node 1 (its share of 8.0 GiB over 2 "
                        + "nodes), node 1 has 3.0 GiB available (2.0 GiB free, the rest page cache; "
                        + "/sys/devices/system/node/node1/meminfo) — load less or free memory",
                refusal(b, 8 * GIB, 0, List.of(0, 1)));
        b.check("the data", 8 * GIB, 0, List.of(0), "load less");
    }

    @Test
    void refusesBeyondTheCgroupLimitLessItsUsage() {
        CgroupMemoryLimit cg = new CgroupMemoryLimit(2, "/c", 4 * GIB, GIB, "/sys/fs/cgroup/c/memory.max");
        MemoryBudget b = new MemoryBudget(TWO_NODES, Optional.of(cg), 8 * GIB, 8 * GIB, null);
        assertEquals(
                "not enough memory: the data needs at least 3.5 GiB (2.0 GiB placed + 1.5 GiB of JVM heap to stage "
                        + "it), the cgroup allows 3.0 GiB more (limit 4.0 GiB in /sys/fs/cgroup/c/memory.max, 1.0 GiB in use) "
                        + "— load less or raise the cgroup's limit",
                refusal(b, 2 * GIB, 3 * GIB / 2, List.of(0)));
        b.check("the data", 2 * GIB, GIB, List.of(0), "load less");
    }

    @Test
    void refusesStagingBeyondTheFreeHeapAndBeyondMaxMemory() {
        MemoryBudget b = new MemoryBudget(TWO_NODES, Optional.empty(), GIB, 2 * GIB, 3 * GIB);
        assertEquals(
                "not enough memory: the data needs at least 1.5 GiB of JVM heap to stage it, the heap has 1.0 GiB "
                        + "free (max 2.0 GiB) — load less or give the JVM more heap, e.g. NUMACUBE_JAVA_OPTS=-Xmx5g",
                refusal(b, GIB, 3 * GIB / 2, List.of(0)));
        assertEquals(
                "not enough memory: the data needs at least 4.0 GiB placed, more than --max-memory 3.0 GiB — load "
                        + "less or raise --max-memory",
                refusal(b, 4 * GIB, 0, List.of(0)));
    }

    @Test
    void parsesSizesInPowersOf1024() {
        assertEquals(16 * GIB, ByteSize.parse("16G"));
        assertEquals(512L << 20, ByteSize.parse("512MiB"));
        assertEquals(3 * GIB / 2, ByteSize.parse("1.5gb"));
        assertEquals(1000, ByteSize.parse("1000"));
        assertThrows(NumacubeException.class, () -> ByteSize.parse("0"));
        assertThrows(NumacubeException.class, () -> ByteSize.parse("lots"));
    }
}
