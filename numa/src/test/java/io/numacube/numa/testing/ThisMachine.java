package io.numacube.numa.testing;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A minimal reading of this machine's topology for tests (nodes, CPUs, MemTotal, distances; the real readers
 *  live elsewhere). */
public final class ThisMachine {

    private static final Path NODES = Path.of("/sys/devices/system/node");

    private ThisMachine() {}

    public static Topology topology() {
        CpuSet online = CpuSet.parse(read(Path.of("/sys/devices/system/cpu/online")));
        if (!Files.isDirectory(NODES.resolve("node0")) && !Files.isDirectory(NODES)) {
            return new Topology(
                    List.of(new NumaNode(0, online, 1L << 30, 0, Map.of(0, 10))),
                    online,
                    CpuSet.empty(),
                    false,
                    List.of("no sysfs nodes"));
        }
        List<NumaNode> nodes = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(NODES)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().matches("node\\d+"))
                    .sorted()
                    .toList()) {
                int id = Integer.parseInt(d.getFileName().toString().substring(4));
                CpuSet cpus = CpuSet.parse(read(d.resolve("cpulist")));
                long memKb = 0;
                for (String l : Files.readAllLines(d.resolve("meminfo"))) {
                    if (l.contains("MemTotal:")) {
                        memKb = Long.parseLong(l.replaceAll(".*MemTotal:\\s*(\\d+).*", "$1"));
                    }
                }
                Map<Integer, Integer> dist = new TreeMap<>();
                dist.put(id, 10);
                Path distance = d.resolve("distance");
                Path onlineNodes = NODES.resolve("online");
                if (Files.isReadable(distance) && Files.isReadable(onlineNodes)) {
                    int[] ids = io.numacube.numa.topology.NodeSet.parse(read(onlineNodes))
                            .toArray();
                    String[] values = read(distance).split("\\s+");
                    for (int i = 0; i < ids.length && i < values.length; i++) {
                        dist.put(ids[i], Integer.parseInt(values[i]));
                    }
                }
                nodes.add(new NumaNode(id, cpus, memKb * 1024, 0, dist));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        nodes.sort(java.util.Comparator.comparingInt(NumaNode::id));
        return new Topology(nodes, online, CpuSet.empty(), true, List.of());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
