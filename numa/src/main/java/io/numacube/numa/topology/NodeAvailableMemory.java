package io.numacube.numa.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How much memory a NUMA node can give a new allocation, from its sysfs meminfo: MemFree plus the file pages the
 * kernel can drop (FilePages less Shmem, which looks like file pages but cannot be dropped). MemFree alone would
 * refuse a load on a machine whose page cache holds the very CSV file being read. Without NUMA in sysfs, node 0 is
 * the machine and /proc/meminfo's MemAvailable is used. Immutable.
 *
 * @param node       the node id
 * @param freeBytes  MemFree
 * @param availableBytes MemFree plus reclaimable file pages (never less than freeBytes)
 * @param source     the meminfo file, for messages
 */
public record NodeAvailableMemory(int node, long freeBytes, long availableBytes, String source) {

    /** The id of the one entry that stands for the whole machine when the nodes' figures cannot be trusted. */
    public static final int MACHINE = -1;

    /**
     * The nodes of {@code topology} that have memory, read under {@code root}. When the nodes' MemTotal add up to less
     * than 90% of /proc/meminfo's (some sandboxes show a node smaller than the machine), the nodes' figures do not
     * describe the machine: one entry with id {@link #MACHINE} and /proc/meminfo's MemAvailable is returned instead.
     */
    public static List<NodeAvailableMemory> read(SystemRoot root, Topology topology) {
        List<NodeAvailableMemory> nodes = perNode(root, topology);
        Optional<List<String>> machine = root.readLines("/proc/meminfo");
        if (topology.numaInSysfs() && machine.isPresent()) {
            OptionalLong total = TopologyReader.meminfoValue(machine.get(), "MemTotal", "/proc/meminfo");
            OptionalLong free = TopologyReader.meminfoValue(machine.get(), "MemFree", "/proc/meminfo");
            OptionalLong available = TopologyReader.meminfoValue(machine.get(), "MemAvailable", "/proc/meminfo");
            long nodesTotal =
                    topology.nodes().stream().mapToLong(NumaNode::memTotalBytes).sum();
            if (total.isPresent() && available.isPresent() && nodesTotal < total.getAsLong() * 0.9) {
                return List.of(new NodeAvailableMemory(
                        MACHINE,
                        free.orElse(0),
                        available.getAsLong(),
                        "/proc/meminfo; the nodes' meminfo add up to less than the machine's"));
            }
        }
        return nodes;
    }

    private static List<NodeAvailableMemory> perNode(SystemRoot root, Topology topology) {
        List<NodeAvailableMemory> out = new ArrayList<>();
        for (NumaNode n : topology.nodes()) {
            if (n.memTotalBytes() == 0) {
                continue;
            }
            String file =
                    topology.numaInSysfs() ? "/sys/devices/system/node/node" + n.id() + "/meminfo" : "/proc/meminfo";
            Optional<List<String>> lines = root.readLines(file);
            long free = n.memFreeBytes();
            long available = free;
            if (lines.isPresent()) {
                // read again, not taken from the topology: a watcher reads the same topology every second
                OptionalLong memFree = TopologyReader.meminfoValue(lines.get(), "MemFree", file);
                if (memFree.isPresent()) {
                    free = memFree.getAsLong();
                    available = free;
                }
                OptionalLong memAvailable = TopologyReader.meminfoValue(lines.get(), "MemAvailable", file);
                OptionalLong filePages = TopologyReader.meminfoValue(lines.get(), "FilePages", file);
                OptionalLong shmem = TopologyReader.meminfoValue(lines.get(), "Shmem", file);
                if (!topology.numaInSysfs() && memAvailable.isPresent()) {
                    available = memAvailable.getAsLong();
                } else if (filePages.isPresent()) {
                    available = free + Math.max(0, filePages.getAsLong() - shmem.orElse(0));
                }
            }
            out.add(new NodeAvailableMemory(
                    n.id(), free, Math.max(free, Math.min(available, n.memTotalBytes())), file));
        }
        return List.copyOf(out);
    }
}
