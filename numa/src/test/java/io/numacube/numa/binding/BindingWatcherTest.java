package io.numacube.numa.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.testing.Machines;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BindingWatcherTest {

    @TempDir
    Path dir;

    /** A copy of a fixture machine whose files the test may change. */
    private SystemRoot copyOf(String machine) throws IOException {
        Path from = Machines.machine(machine).root();
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path to = dir.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return SystemRoot.at(dir);
    }

    private void write(String absolutePath, String text) throws IOException {
        Files.writeString(dir.resolve(absolutePath.substring(1)), text);
    }

    /** Narrows a fake process as a cgroup v2 cpuset change does: its status and the cgroup's effective files. */
    private void narrowV2(String cpus, String mems) throws IOException {
        String cg = "/sys/fs/cgroup/kubepods.slice/pod1234";
        write(cg + "/cpuset.cpus.effective", cpus + "\n");
        write(cg + "/cpuset.mems.effective", mems + "\n");
        setStatus(cpus, mems);
    }

    private void setStatus(String cpus, String mems) throws IOException {
        Path status = dir.resolve("proc/self/status");
        List<String> lines = Files.readAllLines(status).stream()
                .filter(l -> !l.startsWith("Cpus_allowed") && !l.startsWith("Mems_allowed"))
                .toList();
        Files.write(
                status,
                Stream.concat(lines.stream(), Stream.of("Cpus_allowed_list:\t" + cpus, "Mems_allowed_list:\t" + mems))
                        .toList());
    }

    private BindingWatcher watcher(SystemRoot root, Duration period) {
        Topology t = TopologyReader.read(root);
        return new BindingWatcher(root, Optional.empty(), t, period);
    }

    @Test
    void reportsNothingWhileTheBindingsStayTheSame() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            assertEquals("8-15", w.current().allowedCpus().toList());
            assertEquals("1", w.current().allowedMems().toList());
            assertTrue(w.poll().isEmpty());
            assertTrue(w.poll().isEmpty());
        }
    }

    @Test
    void reportsACgroupV2CpusetChangeOldToNewOnce() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        setStatus("0-15", "0-1");
        narrowV2("0-15", "0-1");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            List<BindingChange> seen = new CopyOnWriteArrayList<>();
            w.addListener(seen::add);
            narrowV2("8-15", "1");
            BindingChange c = w.poll().orElseThrow();
            assertEquals(
                    "cpus 0-15 -> 8-15, mems 0-1 -> 1 (cgroup v2 /kubepods.slice/pod1234/cri-containerd-ffee.scope)",
                    c.describe());
            assertEquals("0-1", c.before().allowedMems().toList());
            assertEquals("1", c.after().cpuset().orElseThrow().mems().toList());
            assertEquals(List.of(c), seen);
            assertTrue(w.poll().isEmpty(), "the same change is reported once");
            assertEquals("8-15", w.current().allowedCpus().toList());
        }
    }

    @Test
    void reportsACgroupV1EffectiveCpusetChange() throws IOException {
        SystemRoot root = copyOf("cgroup-v1-docker");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            CgroupCpuset before = w.current().cpuset().orElseThrow();
            assertEquals(1, before.version());
            write("/sys/fs/cgroup/cpuset/docker/abc123/cpuset.effective_cpus", "2-3\n");
            BindingChange c = w.poll().orElseThrow();
            assertEquals("2-3", c.after().cpuset().orElseThrow().cpus().toList());
            // the snapshot's status file still says 0-3: the threads' CPUs are read narrowed to the new cpuset
            assertEquals("2-3", c.after().allowedCpus().toList());
            assertEquals("cpus " + before.cpus().toList() + " -> 2-3 (cgroup v1 /docker/abc123)", c.describe());
        }
    }

    @Test
    void carriesFreeMemoryPerNodeWithoutCallingItAChange() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            long before = w.latest().availableBytesByNode().get(1);
            Path meminfo = dir.resolve("sys/devices/system/node/node1/meminfo");
            Files.writeString(
                    meminfo,
                    Files.readString(meminfo)
                            .replaceAll("MemFree: +\\d+ kB", "MemFree: 1048576 kB")
                            .replaceAll("FilePages: +\\d+ kB", "FilePages: 0 kB"));
            assertTrue(w.poll().isEmpty(), "free memory alone is no binding change");
            long after = w.latest().availableBytesByNode().get(1);
            assertTrue(after < before, "before=" + before + " after=" + after);
        }
    }

    @Test
    void aGarbledReadingIsNoChangeAndTheNextGoodOneIs() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            setStatus("8-x", "1");
            assertTrue(w.poll().isEmpty());
            setStatus("8-11", "1");
            assertEquals("cpus 8-15 -> 8-11", w.poll().orElseThrow().describe());
        }
    }

    @Test
    void theRunningWatcherTellsItsListenersWithinAFewPeriods() throws Exception {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        try (BindingWatcher w = watcher(root, Duration.ofMillis(20))) {
            LinkedBlockingQueue<BindingChange> seen = new LinkedBlockingQueue<>();
            w.addListener(c -> {
                throw new IllegalStateException("a failing listener does not stop the others");
            });
            w.addListener(seen::add);
            w.start();
            narrowV2("9", "1");
            // the three files change one after the other: a reading between them is a change of its own
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            BindingChange c;
            do {
                c = seen.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } while (c != null && !c.after().allowedCpus().toList().equals("9"));
            assertTrue(c != null, "no change to cpus 9 reported within 10 s");
            w.close();
            narrowV2("10", "1");
            assertTrue(seen.poll(200, TimeUnit.MILLISECONDS) == null, "a closed watcher reports nothing");
        }
    }

    @Test
    void refusesAPeriodBelowTenMilliseconds() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> watcher(root, Duration.ofMillis(1)));
        assertEquals("the watch period must be at least 10 ms: period=1ms", e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }

    @Test
    void everyReadingReachesTheReadingListenersWithTheNodesFreeMemoryThoughTheBindingsStayTheSame() throws IOException {
        SystemRoot root = copyOf("cgroup-v2-cpuset");
        try (BindingWatcher w = watcher(root, Duration.ofSeconds(1))) {
            List<BindingState> readings = new CopyOnWriteArrayList<>();
            w.addReadingListener(readings::add);
            w.addReadingListener(s -> {
                throw new IllegalStateException("a failing listener does not stop the others");
            });
            assertTrue(w.poll().isEmpty());
            write(
                    "/sys/devices/system/node/node1/meminfo",
                    "Node 1 MemTotal:       16777216 kB\nNode 1 MemFree:          102400 kB\n");
            assertTrue(w.poll().isEmpty());
            assertEquals(2, readings.size());
            assertEquals(
                    15728640L * 1024, readings.get(0).availableBytesByNode().get(1));
            assertEquals(102400L * 1024, readings.get(1).availableBytesByNode().get(1));
        }
    }
}
