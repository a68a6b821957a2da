package io.numacube.numa.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcCgroupsTest {

    @Test
    void parsesV1ControllersAndTheV2Line() {
        ProcCgroups c = ProcCgroups.parse(List.of(
                "12:cpuset:/docker/abc",
                "garbage",
                "4:memory,hugetlb:/docker/abc/mem",
                "3:cpu,cpuacct:/x",
                "0::/system.slice/x.service"));
        assertEquals(List.of("/docker/abc"), c.v1Paths("cpuset"));
        assertEquals(List.of("/docker/abc/mem"), c.v1Paths("memory"));
        assertEquals(List.of(), c.v1Paths("pids"));
        assertEquals("/system.slice/x.service", c.v2Path());
    }

    @Test
    void aPureV1HostHasNoV2Path() {
        assertNull(ProcCgroups.parse(List.of("1:memory:/")).v2Path());
    }

    @Test
    void walksUpToTheRootAndRefusesPathsOutsideTheNamespace() {
        assertEquals("/a", ProcCgroups.parent("/a/b"));
        assertEquals("/", ProcCgroups.parent("/a"));
        assertNull(ProcCgroups.parent("/"));
        assertTrue(ProcCgroups.walkable("/a/b"));
        assertFalse(ProcCgroups.walkable("/../outside"));
        assertFalse(ProcCgroups.walkable("relative"));
    }
}
